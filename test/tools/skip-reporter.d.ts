// Types of skip-reporter.js, for its test.
export default class SkipReporter {
  /** The file skips.ts appends to (one JSON line per skip). */
  readonly log: string;
  onRunComplete(contexts: unknown, results: { numTotalTests: number; testResults: { testFilePath: string; numPendingTests: number }[] }): void;
}
