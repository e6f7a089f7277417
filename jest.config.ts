import { availableParallelism } from "node:os";
import type { Config } from "jest";

// Suites spend much of their time waiting on the servers and command lines they start, so
// one worker more than the cores keeps the CPUs busy (on 2 cores: 30 minutes serial, 18
// with 3 workers); more than 6 at once only crowds the servers those suites start.
const workers = Math.min(availableParallelism() + 1, 6);

const config: Config = {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: { "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: "tsconfig.json" }] },
  testMatch: ["<rootDir>/src/**/*.test.ts", "<rootDir>/test/**/*.test.ts"],
  testTimeout: 60000,
  maxWorkers: workers,
  reporters: ["default", "<rootDir>/test/tools/skip-reporter.js"],
};
export default config;
