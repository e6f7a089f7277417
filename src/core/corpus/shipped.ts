// The corpus that ships with zconform (cases/ at the package root), found from this
// module's own location: a run from any folder, from an installed package or from a
// consumer's jest uses it unless told otherwise. The path holds for src/ and dist/ alike.

import { fileURLToPath } from "node:url";

export const SHIPPED_CASES = fileURLToPath(new URL("../../../cases", import.meta.url));
