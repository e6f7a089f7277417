// The mutation score per build: killed mutants over those that are not justified
// survivors (bench/mutation/survivors.yaml says in one line why each cannot be seen).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { MutantOutcome } from "./harness.js";

export const SURVIVORS_FILE = join(import.meta.dirname, "survivors.yaml");

/** Justified survivors: mutant id → why no case can show it. */
export function loadJustifications(file = SURVIVORS_FILE): Map<string, string> {
  const doc = parse(readFileSync(file, "utf8")) as { survivors?: { id: string; why: string }[] } | null;
  return new Map((doc?.survivors ?? []).map((s) => [s.id, s.why]));
}

export interface BuildScore {
  build: string;
  mutants: number;
  killed: number;
  justified: number;
  /** killed / (mutants - justified). */
  score: number;
  survivors: MutantOutcome[];
}

export function scoresOf(outcomes: readonly MutantOutcome[], justified: ReadonlyMap<string, string>): BuildScore[] {
  const builds = [...new Set(outcomes.map((o) => o.mutant.build))];
  return builds.map((build) => {
    const mine = outcomes.filter((o) => o.mutant.build === build);
    const killed = mine.filter((o) => o.killed).length;
    const j = mine.filter((o) => !o.killed && justified.has(o.mutant.id)).length;
    const counted = mine.length - j;
    return { build, mutants: mine.length, killed, justified: j, score: counted === 0 ? 1 : killed / counted, survivors: mine.filter((o) => !o.killed) };
  });
}
