// Real zebrad on a regtest chain of its own: writes its config, starts it, waits until
// its JSON-RPC answers with the genesis block committed, and mines with its `generate`
// and `generatetoaddress` RPCs (regtest has no proof of work; each call builds a block
// template, solves it with a null solution and submits it). Its JSON-RPC is an oracle
// and its built-in CompactTxStreamer a build. On failure the error quotes its log.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { JsonRpcEndpoint } from "../../core/targets/endpoint.js";
import type { NodeRpc } from "./lightwalletd.js";
import { nodeCall } from "./node-call.js";
import { binaryPath, type Pin } from "./pins.js";
import { freePort, RealServerError, spawnServer, waitUntil, type ServerProcess } from "./process.js";
import { zebradArgs, zebradEnv, zebradFiles, zebradToml, type ZebradSetup } from "./zebrad-config.js";

export interface ZebradStartOptions {
  minerAddress: string;
  activationHeights: ZebradSetup["activationHeights"];
  timeoutMs?: number;
  /** Keep the temporary folder after close (for reading its log). */
  keep?: boolean;
}

export interface RunningZebrad {
  pin: Pin;
  /** Its JSON-RPC, cookie-authenticated. */
  jsonrpc: JsonRpcEndpoint & { url: string };
  cookieFile: string;
  /** Its built-in CompactTxStreamer. */
  grpcUrl: string;
  process: ServerProcess;
  /** Milliseconds from start until its JSON-RPC answered with genesis committed. */
  startMs: number;
  /** One JSON-RPC call; an error answer throws RealServerError naming the method. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines `n` blocks, to the configured miner address or to `address`; their hashes. */
  mine(n: number, address?: string): Promise<string[]>;
  /** As lightwalletd and zainod need it: the cookie's user and password, network regtest. */
  nodeRpc(): NodeRpc;
  close(): Promise<void>;
}

export async function startZebrad(pin: Pin, o: ZebradStartOptions): Promise<RunningZebrad> {
  const binary = binaryPath(pin);
  if (!existsSync(binary)) throw new RealServerError(`zebrad ${pin.version} is not installed at ${binary} (npm run real:install -- --only zebrad)`);
  const folder = mkdtempSync(join(tmpdir(), "zconform-zebrad-"));
  const setup: ZebradSetup = {
    folder,
    rpcPort: await freePort(),
    grpcPort: await freePort(),
    minerAddress: o.minerAddress,
    activationHeights: o.activationHeights,
  };
  const files = zebradFiles(folder);
  writeFileAtomic(files.config, zebradToml(setup));
  mkdirSync(files.tmp);
  chmodSync(files.config, 0o600);
  const t0 = performance.now();
  const proc = spawnServer({ binary, args: zebradArgs(setup), cwd: folder, logFile: files.log, logsToStdout: true, env: zebradEnv(folder) });
  const jsonrpc = { url: `http://127.0.0.1:${setup.rpcPort}/`, auth: { kind: "cookie" as const, cookieFile: files.cookie } };
  const target = jsonRpcTarget(jsonrpc, { connections: 2 });
  const close = async () => {
    await target.abort();
    await proc.stop();
    if (!o.keep) rmSync(folder, { recursive: true, force: true });
  };
  const call = nodeCall(target, "zebrad");
  const rpc = <T>(method: string, params: unknown[] = [], deadlineMs = 30_000) => call.within<T>(method, params, deadlineMs);
  try {
    // The cookie is written before the RPC server listens; genesis is committed a moment later.
    await waitUntil(
      `zebrad ${pin.version} starting on regtest`,
      proc,
      async () => {
        if (!existsSync(files.cookie)) return false;
        return (await rpc<number>("getblockcount", [], 2_000)) >= 0;
      },
      o.timeoutMs ?? 120_000,
    );
  } catch (e) {
    await close();
    throw e;
  }
  const startMs = performance.now() - t0;
  // A shielded coinbase needs its proof built: 4 to 90 s per Orchard block measured on a
  // shared two-core machine, so the deadline grows with the batch and is generous.
  const mine = async (n: number, address?: string): Promise<string[]> => {
    const hashes: string[] = [];
    for (let left = n; left > 0; left -= 50) {
      const k = Math.min(50, left);
      hashes.push(...(await rpc<string[]>(address ? "generatetoaddress" : "generate", address ? [k, address] : [k], 60_000 + k * (address ? 600_000 : 1_000))));
    }
    return hashes;
  };
  const nodeRpc = (): NodeRpc => {
    const [user, password] = readCookie(files.cookie);
    return { url: jsonrpc.url, user, password, cookieFile: files.cookie, network: "regtest" };
  };
  return {
    pin,
    jsonrpc,
    cookieFile: files.cookie,
    grpcUrl: `http://127.0.0.1:${setup.grpcPort}`,
    process: proc,
    startMs,
    rpc: (method, params) => rpc(method, params),
    mine,
    nodeRpc,
    close,
  };
}

function readCookie(file: string): [string, string] {
  const text = readFileSync(file, "utf8").trim();
  const colon = text.indexOf(":");
  return [text.slice(0, colon), text.slice(colon + 1)];
}

/** Waits until every txid is in zebrad's mempool: sendrawtransaction answers before the mempool has verified it. */
export async function waitInMempool(z: Pick<RunningZebrad, "rpc">, txids: readonly string[], timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const pool = new Set(await z.rpc<string[]>("getrawmempool"));
    const missing = txids.filter((t) => !pool.has(t));
    if (missing.length === 0) return;
    if (performance.now() > deadline)
      throw new RealServerError(`zebrad's mempool still lacks ${missing.join(", ")} ${timeoutMs / 1000} s after sendrawtransaction accepted them`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
