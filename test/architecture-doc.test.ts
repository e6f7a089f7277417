// docs/architecture.md is the map of src/: it stays true only if something fails when the
// code moves on without it. The doc names folders as paths from the repository root
// (`src/zcash/fixture/grpc/`); its folder table lists exactly the folders under src/, its
// Protocol table exactly the members of the Protocol interface (read with the TypeScript
// compiler, inherited members included), and it names every schema in schemas/. Any path
// it names under src/ (or from a layer's folder, `core/run/session.ts`) must exist.

import { describe, expect, test } from "@jest/globals";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dirname, "..");
const DOC = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

/** Every folder under src/, at every depth, as `src/a/b`. */
function srcFolders(): string[] {
  const walk = (rel: string): string[] => [
    rel,
    ...readdirSync(join(ROOT, rel), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) => walk(`${rel}/${e.name}`)),
  ];
  return walk("src").sort();
}

/** The member names of the Protocol interface, as the type checker sees them (inherited ones too). */
function protocolMembers(): string[] {
  const file = join(ROOT, "src", "core", "run", "protocol.ts");
  const tsconfig = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  // Member names need neither the standard library nor ambient types: leaving them out halves the time.
  const program = ts.createProgram([file], { ...tsconfig!.options, noLib: true, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  const protocol = checker.getExportsOfModule(module).find((s) => s.name === "Protocol");
  if (!protocol) throw new Error("src/core/run/protocol.ts exports no Protocol");
  return checker
    .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(protocol))
    .map((p) => p.name)
    .sort();
}

/** The lines of the doc's section under `## heading`, up to the next `## `. */
function section(doc: string, heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}" section`);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The first cells of a section's table rows, when they are one code span. */
function firstCells(text: string): string[] {
  return [...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

const noTrailing = (p: string) => p.replace(/[./]+$/, "");

/** The folders the Folders table lists, one row each. */
function listedFolders(doc: string): string[] {
  return firstCells(section(doc, "Folders")).map(noTrailing).sort();
}

/**
 * Every path under src/ the doc names: written from the root (`src/core/run`), or in a
 * code span from a layer's folder (`core/run/session.ts`, as the tables and prose do).
 */
function namedSrcPaths(doc: string): string[] {
  const fromRoot = [...doc.matchAll(/(?<![\w./-])src\/[\w./-]*/g)].map((m) => m[0]);
  const fromLayer = [...doc.matchAll(/`([^`\n]+)`/g)].flatMap((m) => {
    const p = /^(?:core|zcash|modes|cli|jest)\/[\w./-]*/.exec(m[1]!);
    return p ? [`src/${p[0]}`] : [];
  });
  return [...new Set([...fromRoot, ...fromLayer].map(noTrailing))].sort();
}

/** Named paths that are not there: a folder that is gone, or a file that moved. */
function missingPaths(paths: readonly string[]): string[] {
  return paths.filter((p) => !existsSync(join(ROOT, p)) || (!/\.\w+$/.test(p) && !statSync(join(ROOT, p)).isDirectory()));
}

describe("docs/architecture.md", () => {
  test("its folder table lists every folder under src/, and no other", () => {
    const actual = srcFolders();
    const listed = listedFolders(DOC);
    expect({ notInDoc: actual.filter((f) => !listed.includes(f)), notInSrc: listed.filter((f) => !actual.includes(f)) }).toEqual({
      notInDoc: [],
      notInSrc: [],
    });
    expect(listed.length).toBe(new Set(listed).size);
  });

  test("every path it names under src/ exists", () => {
    expect(missingPaths(namedSrcPaths(DOC))).toEqual([]);
  });

  test("its Protocol table lists every member of the Protocol interface, and no other", () => {
    const members = protocolMembers();
    const listed = firstCells(section(DOC, "The protocol as a value")).sort();
    expect({ notInDoc: members.filter((m) => !listed.includes(m)), notInInterface: listed.filter((m) => !members.includes(m)) }).toEqual({
      notInDoc: [],
      notInInterface: [],
    });
  });

  test("it names every schema in schemas/, and no other", () => {
    const schemas = readdirSync(join(ROOT, "schemas"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => `schemas/${f}`)
      .sort();
    const named = [...new Set([...DOC.matchAll(/schemas\/[\w.-]+\.json/g)].map((m) => m[0]))].sort();
    expect(named).toEqual(schemas);
  });

  // The checks above pass on a true doc; these show they fail on an untrue one.
  test("a folder dropped from the table, or a folder or file that is not there, is caught", () => {
    const dropped = DOC.replace(/^\| `src\/zcash\/fixture\/moving\/` \|.*\n/m, "");
    expect(srcFolders().filter((f) => !listedFolders(dropped).includes(f))).toContain("src/zcash/fixture/moving");
    const ghosts = `${DOC}\nSee \`src/zcash/fixture/ghost/\` and \`core/run/ghost.ts\`.\n`;
    expect(missingPaths(namedSrcPaths(ghosts))).toEqual(expect.arrayContaining(["src/core/run/ghost.ts", "src/zcash/fixture/ghost"]));
  });
});
