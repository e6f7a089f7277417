// What the bundles of dist/ (build-cjs.ts, build-cli.ts) put where a source file says
// `import.meta`. Every use stands for the file's own place in dist/ (zconform finds its
// package.json, cases/, proto/ and bin/ from there), which a bundle no longer has: each is
// replaced by a call of a helper (`__zconformUrl`, `__zconformDir`, defined in the bundle's
// banner by importMetaHelpers) with the place the module has in the ESM build of tsc.

import type { Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "src");

export const importMeta: Plugin = {
  name: "import-meta",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!args.path.startsWith(SRC) || !text.includes("import.meta")) return undefined;
      const asBuilt = relative(SRC, args.path).replace(/\.ts$/, ".js");
      const contents = text
        .replaceAll("import.meta.url", `__zconformUrl(${JSON.stringify(asBuilt)})`)
        .replaceAll("import.meta.dirname", `__zconformDir(${JSON.stringify(dirname(asBuilt))})`);
      if (contents.includes("import.meta")) throw new Error(`${args.path}: an import.meta use a bundle cannot stand in for`);
      return { contents, loader: "ts" };
    });
  },
};

/**
 * The banner lines that define the helpers the replaced expressions call, given a
 * JavaScript expression for dist/'s folder. The banner binds `__zconformNodePath` and
 * `__zconformNodeUrl` to node:path and node:url first, as its module format allows.
 */
export function importMetaHelpers(dist: string): string[] {
  return [
    `const __zconformDist = ${dist};`,
    "const __zconformUrl = (p) => __zconformNodeUrl.pathToFileURL(__zconformNodePath.join(__zconformDist, p)).href;",
    "const __zconformDir = (p) => __zconformNodePath.join(__zconformDist, p);",
  ];
}
