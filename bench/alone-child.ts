// One kind of pass in a fresh process of its own, `passes` times back to back, for
// bench/sweep.ts: a tuned-window drain, or the sweep (runSweep, as `zconform sweep` calls
// it). Its first pass pays the process's start (V8 compiling the hot paths while the
// first blocks arrive), as a fresh `zconform sweep` does; the later ones are a long sweep's
// steady state, with no other kind of pass warming or muddling the same code in between.
// Prints each pass's heights/s by wall time, timed from the first request.
// Run: npx tsx bench/alone-child.ts <drain|sweep> <passes> <heights> <pools> <url>…
import { drainPass, poolsArg, sweepPass, wallRate } from "./sweep-common.js";
import { TUNED_WINDOWS } from "./drain.js";

const [kind, passes, heights] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
if (kind !== "drain" && kind !== "sweep") throw new Error(`the pass is drain or sweep, not ${kind}`);
const pools = poolsArg(process.argv[5] ?? "");
const urls = Object.fromEntries(process.argv.slice(6).map((url, i) => [`build-${i + 1}`, url]));
const rates: number[] = [];
for (let i = 0; i < passes; i++) {
  const pass = kind === "drain" ? await drainPass(urls, 1, heights, pools, TUNED_WINDOWS) : await sweepPass(urls, 1, heights, pools);
  rates.push(wallRate(pass, heights));
}
console.log(JSON.stringify({ heightsPerSecond: rates }));
