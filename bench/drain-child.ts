// One tuned-window drain of every build in a fresh process, for bench/sweep.ts: the
// ceiling of a fresh `zconform sweep` process is a fresh reader, which pays the same
// start (V8 compiling its hot paths while the first blocks arrive) that a warm one has
// already paid. Prints the pass's heights/s by wall time, timed from the first request
// as the command's report is.
// Run: npx tsx bench/drain-child.ts <heights> <pools> <url>…
import { drainPass, poolsArg, wallRate } from "./sweep-common.js";
import { TUNED_WINDOWS } from "./drain.js";

const heights = Number(process.argv[2]);
const pools = poolsArg(process.argv[3] ?? "");
const urls = Object.fromEntries(process.argv.slice(4).map((url, i) => [`build-${i + 1}`, url]));
const pass = await drainPass(urls, 1, heights, pools, TUNED_WINDOWS);
console.log(JSON.stringify({ heightsPerSecond: wallRate(pass, heights) }));
