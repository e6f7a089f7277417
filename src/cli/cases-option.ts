// The --cases option of every command: a corpus folder, by default the shipped one.

import { Option } from "commander";
import { SHIPPED_CASES } from "../core/corpus/shipped.js";

export function casesOption(description = "corpus folder"): Option {
  return new Option("--cases <dir>", description).default(SHIPPED_CASES, "the corpus shipped with zconform");
}
