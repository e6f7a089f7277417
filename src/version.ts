// The tool's version, from package.json, for reports and GetLightdInfo of the fixture.
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export const VERSION: string = pkg.version;
