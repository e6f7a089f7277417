// The CommonJS half of the dual package: dist/cjs/index.cjs and dist/cjs/jest.cjs, what
// `require("zconform")` and `require("zconform/jest")` load. jest runs test files as
// CommonJS unless a project opts into its experimental ESM mode, and its own loader
// cannot require an ES module on Node 20, so the ESM build alone failed in a default
// `npx ts-jest config:init` project ("Must use import to load ES Module").
//
// One bundle holds zconform's own sources once, with the library and the jest integration
// as two namespaces of it, so that a reporter or an error class is the same object
// whichever entry a test file requires. Dependencies that ship CommonJS
// stay outside (required at run time); those that ship only ES modules (@noble/hashes,
// canonicalize, chalk, …) are bundled in, since jest could not require them either.
// `import.meta` has no CommonJS equivalent in a bundle: each use is replaced by the place
// the module has in the ESM build beside it (scripts/bundle-import-meta.ts).
//
//   npx tsx scripts/build-cjs.ts      (run by `npm run build`, after tsc)

import { build, type Plugin } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { importMeta, importMetaHelpers, ROOT } from "./bundle-import-meta.js";

const OUT = join(ROOT, "dist", "cjs");
/** Each entry of the package's `exports` (its `require` condition) and the namespace of the bundle it is. */
const ENTRIES = { index: "lib", jest: "jest" } as const;

/** Strict mode, and the helpers the replaced `import.meta` expressions call: places relative to dist/. */
const BANNER = [
  '"use strict";',
  'const __zconformNodePath = require("node:path");',
  'const __zconformNodeUrl = require("node:url");',
  ...importMetaHelpers('__zconformNodePath.join(__dirname, "..")'),
].join("\n");

const requireFromRoot = createRequire(join(ROOT, "package.json"));

/** Whether Node resolves `specifier`, as `require` would, to an ES module (so jest's CommonJS loader cannot load it). */
function esmOnly(specifier: string): boolean {
  let file: string;
  try {
    file = requireFromRoot.resolve(specifier);
  } catch {
    return true; // no "require" condition at all
  }
  if (file.endsWith(".mjs")) return true;
  if (file.endsWith(".cjs") || !file.endsWith(".js")) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { type?: string }).type === "module";
    } catch {
      if (dirname(dir) === dir) return false;
    }
  }
}

const dependencies: Plugin = {
  name: "dependencies",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      return esmOnly(args.path) ? undefined : { path: args.path, external: true };
    });
  },
};

await build({
  stdin: {
    contents: `export * as lib from "./src/index.js";\nexport * as jest from "./src/jest/index.js";\n`,
    resolveDir: ROOT,
    sourcefile: "zconform.cjs",
    loader: "ts",
  },
  outfile: join(OUT, "zconform.cjs"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  banner: { js: BANNER },
  plugins: [dependencies, importMeta],
  logLevel: "warning",
});

for (const [entry, namespace] of Object.entries(ENTRIES)) {
  writeFileSync(join(OUT, `${entry}.cjs`), `"use strict";\nmodule.exports = require("./zconform.cjs").${namespace};\n`);
}
