// Real lightwalletd against a Zebra-style JSON-RPC (the fixture's oracle): writes its
// conf, starts it, and waits until its block cache holds the chain up to the tip and its
// gRPC port answers. On failure the error quotes the last lines of its log. Nothing else
// is asked of it first: its mempool caches start empty, as a wallet meets them after a
// restart, and the ledger says so (lwd-mempool-cold-after-start).

import type { JsonRpcEndpoint } from "../../core/targets/config.js";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { grpcTarget } from "../../core/targets/grpc.js";
import { ChainSpecSchema, CompactTxStreamer, EmptySchema, GetMempoolTxRequestSchema } from "../gen/walletrpc/service_pb.js";
import { lightwalletdArgs, lightwalletdFiles, waitingForHeight, zcashConf, type LightwalletdSetup } from "./lightwalletd-config.js";
import { binaryPath, type Pin } from "./pins.js";
import { freePort, RealServerError, spawnServer, waitUntil, type ServerProcess } from "./process.js";

export interface NodeRpc {
  url: string;
  user: string;
  password: string;
  /** Zebra's `.cookie` file holding `__cookie__:<password>`, for servers that read it themselves. */
  cookieFile?: string;
  network: LightwalletdSetup["network"];
}

export interface RunningRealServer {
  pin: Pin;
  grpcUrl: string;
  /** Its own JSON-RPC server, when it has one (zainod). */
  jsonrpc?: JsonRpcEndpoint;
  process: ServerProcess;
  /** Milliseconds from start until it had ingested the chain to the tip. */
  ingestMs: number;
  /** Milliseconds from start until its gRPC port first answered OK (polled every 250 ms). */
  firstAnswerMs: number;
  /** The folder holding the index it builds (its block cache or database). */
  dataDir: string;
  close(): Promise<void>;
}

export interface StartOptions {
  tip: number;
  ping?: boolean;
  timeoutMs?: number;
  /** Keep the temporary folder after close (for reading its log). */
  keep?: boolean;
  /**
   * Steady state before the run: one GetMempoolStream and one GetMempoolTx fill its mempool
   * caches. Only `fidelity` asks for it, which compares the emulation with the server's
   * steady answers and keeps them as goldens; every other start leaves the caches cold, as
   * a wallet meets them after a restart (lwd-mempool-cold-after-start and its neighbours).
   * A stream cancelled while it refreshes the shared cache also loses the transactions it
   * had not fetched until the next block (lwd-mempool-stream-cancel-loses-txs): the
   * fidelity run's deadline case would otherwise do that to every later stream case.
   */
  steady?: boolean;
}

export async function startLightwalletd(pin: Pin, node: NodeRpc, o: StartOptions): Promise<RunningRealServer> {
  const binary = binaryPath(pin);
  if (!existsSync(binary)) throw new RealServerError(`lightwalletd ${pin.version} is not installed at ${binary} (npm run real:install -- --only lightwalletd)`);
  const folder = mkdtempSync(join(tmpdir(), "zconform-lightwalletd-"));
  const setup: LightwalletdSetup = {
    rpcUrl: node.url,
    rpcUser: node.user,
    rpcPassword: node.password,
    network: node.network,
    folder,
    grpcPort: await freePort(),
    httpPort: await freePort(),
    ping: o.ping ?? false,
  };
  const files = lightwalletdFiles(folder);
  // The folder is mkdtemp's (mode 0700): the credentials are never readable by others.
  writeFileAtomic(files.conf, zcashConf(setup));
  chmodSync(files.conf, 0o600);
  const proc = spawnServer({ binary, args: lightwalletdArgs(setup), cwd: folder, logFile: files.log });
  const grpcUrl = `http://127.0.0.1:${setup.grpcPort}`;
  const close = async () => {
    await proc.stop();
    if (!o.keep) rmSync(folder, { recursive: true, force: true });
  };
  const target = grpcTarget({ url: grpcUrl }, { deadlineMs: 2_000 });
  const t0 = performance.now();
  let firstAnswerMs: number | undefined;
  try {
    const ingestMs = await waitUntil(
      `lightwalletd ${pin.version} ingesting to height ${o.tip}`,
      proc,
      async () => {
        // Asked on every poll, not only once the log shows the tip: when it first answers is a figure of its own.
        const obs = await target.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema));
        if (obs.code === 0) firstAnswerMs ??= performance.now() - t0;
        const log = existsSync(files.log) ? readFileSync(files.log, "utf8") : "";
        return obs.code === 0 && (waitingForHeight(log) ?? 0) > o.tip;
      },
      o.timeoutMs ?? 120_000,
    );
    if (o.steady) {
      await target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), { deadlineMs: 5_000 });
      await target.call(CompactTxStreamer.method.getMempoolTx, create(GetMempoolTxRequestSchema), { deadlineMs: 5_000 });
    }
    return { pin, grpcUrl, process: proc, ingestMs, firstAnswerMs: firstAnswerMs ?? ingestMs, dataDir: files.data, close };
  } catch (e) {
    await close();
    throw e;
  } finally {
    target.abort();
  }
}
