// Narrowing the corpus from the command line: --case and --method patterns.

import type { Case } from "../core/corpus/case.js";
import { glob } from "../core/corpus/glob.js";

export interface CaseFilter {
  case?: string[];
  method?: string[];
}

export function selectCases(cases: readonly Case[], f: CaseFilter): Case[] {
  const ids = f.case ?? [];
  const methods = new Set(f.method ?? []);
  return cases.filter((c) => (ids.length === 0 || ids.some((p) => glob(p, c.id))) && (methods.size === 0 || methods.has(c.method)));
}
