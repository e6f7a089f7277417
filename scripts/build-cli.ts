// The command line as one file: dist/bundle/zconform.mjs, what bin/zconform.js runs. Node
// loads the ~350 modules of tsc's build and those of the dependencies one by one, ~0.55 s
// of CPU before a command starts; one bundled file with its dependencies in it starts in
// ~0.2 s (bench/README.md, start-up), and the test suite starts the command line hundreds
// of times. The library and the jest integration stay as tsc built them (and build-cjs.ts).
//
//   npx tsx scripts/build-cli.ts      (run by `npm run build`, after tsc)

import { build } from "esbuild";
import { join } from "node:path";
import { importMeta, importMetaHelpers, ROOT } from "./bundle-import-meta.js";

/**
 * `require` for the dependencies that ship CommonJS, and the helpers the replaced
 * `import.meta` expressions call: places relative to dist/, the bundle's parent.
 */
const BANNER = [
  'import { createRequire as __zconformRequire } from "node:module";',
  'import * as __zconformNodePath from "node:path";',
  'import * as __zconformNodeUrl from "node:url";',
  "const require = __zconformRequire(import.meta.url);",
  ...importMetaHelpers('__zconformNodePath.join(__zconformNodePath.dirname(__zconformNodeUrl.fileURLToPath(import.meta.url)), "..")'),
].join("\n");

await build({
  entryPoints: [join(ROOT, "src", "cli", "main.ts")],
  outfile: join(ROOT, "dist", "bundle", "zconform.mjs"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  banner: { js: BANNER },
  plugins: [importMeta],
  logLevel: "warning",
});
