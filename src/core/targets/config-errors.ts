// A config problem is a problem of a user's YAML file like any other
// (src/core/io/located-yaml.ts); the config's own error type lets callers tell it apart.

import { ProblemsError, type Problem } from "../io/located-yaml.js";

export type ConfigProblem = Problem;

export class ConfigError extends ProblemsError {
  constructor(problems: ConfigProblem[]) {
    super(problems);
    this.name = "ConfigError";
  }
}
