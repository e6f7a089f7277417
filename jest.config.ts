import { availableParallelism } from "node:os";
import type { Config } from "jest";

// Suites that time real sockets (the ~40 ms delayed-ACK plateau, the emulated Nagle holds,
// tip following): other suites running beside them move their figures, so `npm test`
// runs them alone after the rest (ZCONFORM_JEST_PHASE=timing). Any other jest run, such
// as `npx jest <file>`, runs whatever it is given as usual.
const TIMING_SUITES = [
  "src/modes/latency/latency.test.ts",
  "src/zcash/fixture/grpc/latency.test.ts",
  "src/zcash/fixture/grpc/profiles.test.ts",
  "test/real-zaino-latency.test.ts",
  "test/real-serve-bench.test.ts",
];

// The rest spend much of their time waiting on the servers and command lines they start,
// so one worker more than the cores keeps the CPUs busy (on 2 cores: 30 minutes in one
// process, 16 with 3 workers); more than 6 at once only crowds the servers they start.
const workers = Math.min(availableParallelism() + 1, 6);

const phase = process.env.ZCONFORM_JEST_PHASE;
const timing = TIMING_SUITES.map((f) => `<rootDir>/${f}`);

const config: Config = {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: { "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: "tsconfig.json" }] },
  testMatch: phase === "timing" ? timing : ["<rootDir>/src/**/*.test.ts", "<rootDir>/test/**/*.test.ts"],
  ...(phase === "rest" ? { testPathIgnorePatterns: ["/node_modules/", ...TIMING_SUITES.map((f) => `/${f.replace(/\./g, "\\.")}$`)] } : {}),
  maxWorkers: phase === "timing" ? 1 : workers,
  testTimeout: 60000,
  reporters: ["default", "<rootDir>/test/tools/skip-reporter.js"],
  // The synthetic chain built once for the whole run instead of at every fixture start.
  globalSetup: "<rootDir>/test/tools/synthetic-cache-setup.js",
  globalTeardown: "<rootDir>/test/tools/synthetic-cache-teardown.js",
};
export default config;
