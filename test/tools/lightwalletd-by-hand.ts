// Real lightwalletd started the way an operator starts it: a zcash.conf naming the node,
// its documented flags, and a wait on its own log for the chain's tip. Nothing of
// zconform's asks it anything first.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, type Pin } from "../../src/zcash/real/pins.js";
import { freePort } from "../../src/zcash/real/process.js";
import { waitFor } from "./cli.js";
import type { TempDir } from "./temp-corpus.js";

export interface HandStarted {
  child: ChildProcess;
  grpcUrl: string;
}

/** Starts it in `dir` on the node at `rpcUrl`; resolves once its log waits for the block after `tip`. */
export async function lightwalletdByHand(pin: Pin, dir: TempDir, node: { url: string; user: string; password: string }, tip: number): Promise<HandStarted> {
  const rpc = new URL(node.url);
  const conf = dir.write("zcash.conf", `rpcuser=${node.user}\nrpcpassword=${node.password}\nrpcbind=${rpc.hostname}\nrpcport=${rpc.port}\nregtest=1\n`);
  const port = await freePort();
  const log = join(dir.path, "lightwalletd.log");
  const child = spawn(
    binaryPath(pin),
    [
      "--no-tls-very-insecure",
      "--grpc-bind-addr",
      `127.0.0.1:${port}`,
      "--http-bind-addr",
      `127.0.0.1:${await freePort()}`,
      "--data-dir",
      join(dir.path, "data"),
      "--log-file",
      log,
      "--zcash-conf-path",
      conf,
    ],
    { stdio: "ignore" },
  );
  try {
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes(`"Waiting for block: ${tip + 1}"`), 180_000, "lightwalletd to ingest the chain");
  } catch (e) {
    child.kill("SIGKILL");
    throw e;
  }
  return { child, grpcUrl: `http://127.0.0.1:${port}` };
}
