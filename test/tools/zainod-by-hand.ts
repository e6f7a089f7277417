// Real zainod started the way an operator starts it: a zainod.toml written by hand from
// Zaino's documented keys (the fetch backend on the node's JSON-RPC with its cookie, gRPC
// and its own JSON-RPC server on loopback, cookie auth on), `zainod start --config`, and a
// wait on its own log for the chain's tip. Nothing of zconform's asks it anything first.

import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, type Pin } from "../../src/zcash/real/pins.js";
import { freePort } from "../../src/zcash/real/process.js";
import { waitFor } from "./cli.js";
import type { TempDir } from "./temp-corpus.js";

export interface ZainodByHand {
  child: ChildProcess;
  grpcUrl: string;
  jsonRpcUrl: string;
  /** The cookie its JSON-RPC server wrote, as a client reads it. */
  cookieFile: string;
}

/** Starts it in `dir` on the node at `nodeUrl` (cookie auth); resolves once its log has synced block `tip`. */
export async function zainodByHand(pin: Pin, dir: TempDir, node: { url: string; cookieFile: string }, tip: number): Promise<ZainodByHand> {
  const rpc = new URL(node.url);
  const [grpcPort, jsonPort] = [await freePort(), await freePort()];
  const cookies = join(dir.path, "cookies");
  const config = dir.write(
    "zainod.toml",
    [
      'backend = "fetch"',
      'network = "Regtest"',
      "",
      "[grpc_settings]",
      `listen_address = "127.0.0.1:${grpcPort}"`,
      "",
      "[json_server_settings]",
      `json_rpc_listen_address = "127.0.0.1:${jsonPort}"`,
      `cookie_dir = "${cookies}"`,
      "",
      "[validator_settings]",
      `validator_jsonrpc_listen_address = "${rpc.hostname}:${rpc.port}"`,
      `validator_cookie_path = "${node.cookieFile}"`,
      "",
      "[storage.database]",
      `path = "${join(dir.path, "db")}"`,
      "",
    ].join("\n"),
  );
  const log = join(dir.path, "zainod.log");
  const fd = openSync(log, "a");
  const child = spawn(binaryPath(pin), ["start", "--config", config], {
    stdio: ["ignore", fd, fd],
    env: { PATH: process.env.PATH ?? "", HOME: dir.path, ZAINOLOG_COLOR: "false" },
  });
  closeSync(fd);
  try {
    await waitFor(() => existsSync(log) && new RegExp(`height: ${tip}\\b`).test(readFileSync(log, "utf8")), 180_000, "zainod to sync the chain");
  } catch (e) {
    child.kill("SIGKILL");
    throw new Error(`${(e as Error).message}; its log ends: ${existsSync(log) ? readFileSync(log, "utf8").slice(-1500) : "(none)"}`);
  }
  return { child, grpcUrl: `http://127.0.0.1:${grpcPort}`, jsonRpcUrl: `http://127.0.0.1:${jsonPort}`, cookieFile: join(cookies, ".cookie") };
}
