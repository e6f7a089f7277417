/**
 * The layering of src/, checked in the test suite (test/layering.test.ts).
 * docs/architecture.md explains each rule; change both together.
 * Tests are left out of the graph: an end-to-end test beside a core module wires
 * the core, the Zcash fixture and a command together on purpose, and ships in no
 * build (tsconfig.build.json excludes them too). Test helpers are in it: one that
 * needs the whole program lives with the tests (test/tools/), so a helper beside
 * a core module keeps to the core, but for the generated protocol descriptors.
 */

module.exports = {
  forbidden: [
    {
      name: "core-imports-no-wing",
      comment: "The core is protocol-agnostic: the Zcash wing, the modes, the CLI and the jest integration plug into it, never the reverse.",
      severity: "error",
      from: { path: "^src/core/", pathNot: "\\.test-helper\\.ts$" },
      to: { path: "^src/(zcash|modes|cli|jest)/" },
    },
    {
      name: "core-test-helpers-import-no-wing",
      comment: "A core test helper keeps to the core too; it may take the generated descriptors of src/zcash/gen/, the messages the core's tests speak, and nothing else of the wing. A helper that needs the whole program (the CLI, the fixture, the Zcash protocol) lives in test/tools/.",
      severity: "error",
      from: { path: "^src/core/.*\\.test-helper\\.ts$" },
      to: { path: "^src/(zcash|modes|cli|jest)/", pathNot: "^src/zcash/gen/" },
    },
    {
      name: "wing-imports-no-modes",
      comment: "The Zcash wing is a protocol value and its servers; the modes and the commands are built on it.",
      severity: "error",
      from: { path: "^src/zcash/" },
      to: { path: "^src/(modes|cli|jest)/" },
    },
    {
      name: "modes-import-no-cli",
      comment: "Modes are library code; the CLI is one caller among others (jest, benchmarks).",
      severity: "error",
      from: { path: "^src/modes/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "reporters-import-no-runner",
      comment: "Reporters read the result and event model (core/results), not how results were produced.",
      severity: "error",
      from: { path: "^src/core/report/" },
      to: { path: "^src/core/run/" },
    },
    {
      name: "no-folder-cycles",
      comment: "Folders form a layered graph: a folder that depends on another is not depended on by it, directly or not.",
      severity: "error",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^src/zcash/gen/"] },
    exclude: { path: "\\.test\\.ts$" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: [".ts", ".js"],
    },
  },
};
