// Mutation score of the corpus and the ledger: every mutant (bench/mutation/mutants.ts)
// is injected into the fixture network, the cases of its rpcs are run with the ledger,
// and it is killed when the run shows what the unmutated run does not: a new divergence,
// a stale entry, or (for the compact derivations) also a divergence from the recorded
// answers of real lightwalletd (bench/mutation/harness.ts).
// Prints the score per build and every survivor, with its justification if it has one.
// Run: npx tsx bench/mutation.ts [id-substring[,id-substring…]]   (VERBOSE=1 lists every mutant)
import { baselineOf, runMutant, startHarness, type MutantOutcome } from "./mutation/harness.js";
import { allMutants } from "./mutation/mutants.js";
import { loadJustifications, scoresOf } from "./mutation/score.js";

const filter = process.argv[2]?.split(",");
const mutants = allMutants().filter((m) => filter === undefined || filter.some((f) => m.id.includes(f)));
const justified = loadJustifications();
const h = await startHarness();
try {
  const t0 = performance.now();
  const base = await h.run([...new Set(mutants.flatMap((m) => m.methods))], {});
  const baselineMs = performance.now() - t0;
  const baseline = baselineOf(base);
  console.log(`unmutated run: ${base.results.length} cases, ${baseline.fresh.size} new divergences, ${(baselineMs / 1000).toFixed(0)} s`);
  const outcomes: MutantOutcome[] = [];
  for (const m of mutants) {
    const o = await runMutant(h, m, baseline);
    outcomes.push(o);
    if (process.env.VERBOSE)
      console.log(
        `${o.killed ? "killed  " : "SURVIVED"} ${m.id} (${(o.ms / 1000).toFixed(1)} s)${o.killed ? ` — ${o.evidence[0]}` : ` absorbed by: ${o.absorbedBy.join(", ") || "nothing"}`}`,
      );
  }
  const mutantMs = outcomes.reduce((n, o) => n + o.ms, 0);
  console.log(
    `\n${mutants.length} mutants in ${(mutantMs / 1000).toFixed(0)} s: ${(mutantMs / baselineMs).toFixed(1)}× the unmutated run of every case they touch\n`,
  );
  console.log("build              mutants  killed  justified  score");
  for (const s of scoresOf(outcomes, justified)) {
    console.log(
      `${s.build.padEnd(18)} ${String(s.mutants).padStart(7)} ${String(s.killed).padStart(7)} ${String(s.justified).padStart(10)}  ${(s.score * 100).toFixed(1)}%`,
    );
  }
  const survivors = outcomes.filter((o) => !o.killed);
  console.log(`\nsurvivors (${survivors.length}):`);
  for (const o of survivors) {
    const why = justified.get(o.mutant.id);
    console.log(
      `  ${o.mutant.id}: ${why ? `justified: ${why}` : `UNJUSTIFIED (${o.mutant.title}; ledger entries that explained its divergences: ${o.absorbedBy.join(", ") || "none"})`}`,
    );
  }
  const stale = [...justified.keys()].filter((id) => !mutants.some((m) => m.id === id) && filter === undefined);
  if (stale.length > 0) console.log(`\njustifications for no mutant: ${stale.join(", ")}`);
} finally {
  await h.close();
}
