// Bench helper, run as a child process: gRPC servers of the given profiles over the
// fixture's long chain (src/zcash/fixture/chain/long.ts), in their own process so that what
// the benchmark measures in the parent is the client's work, not the server's. The
// profile name "oracle" starts the Zebra-style JSON-RPC server over the same chain
// instead. Computes every block hash before it says it is ready, so no measured pass pays
// for them.
// Usage: npx tsx bench/fixture-server.ts <tip> <profile|oracle>...   → one JSON line on stdout.
import { longChain } from "../src/zcash/fixture/chain/long.js";
import { startGrpcServer } from "../src/zcash/fixture/grpc/server.js";
import { startJsonRpcServer } from "../src/zcash/fixture/jsonrpc/index.js";
import type { ProfileName } from "../src/zcash/fixture/network.js";

const tip = Number(process.argv[2]);
const wantOracle = process.argv.slice(3).includes("oracle");
const profiles = process.argv.slice(3).filter((p) => p !== "oracle") as ProfileName[];
const model = longChain({ tip });
const t0 = performance.now();
model.blockAt(tip);
const hashMs = performance.now() - t0;
const servers = await Promise.all(profiles.map((profile) => startGrpcServer({ model, profile })));
const rpc = wantOracle ? await startJsonRpcServer({ model, profile: "zebra" }) : undefined;
process.stdout.write(
  `${JSON.stringify({
    urls: Object.fromEntries(profiles.map((p, i) => [p, servers[i]!.url])),
    ...(rpc ? { oracle: { url: rpc.url, cookieFile: rpc.cookieFile } } : {}),
    hashMs,
  })}\n`,
);
// Runs until the parent closes stdin.
process.stdin.resume();
process.stdin.on("end", async () => {
  await Promise.all([...servers.map((s) => s.close()), rpc?.close()]);
  process.exit(0);
});
