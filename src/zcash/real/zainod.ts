// Real zainod against a Zebra-style JSON-RPC (the fixture's oracle): writes its TOML
// config, starts it, and waits until its gRPC GetLatestBlock answers the chain's tip,
// i.e. it has ingested every block. On failure (also when it keeps retrying one block)
// the error quotes the last lines of its log.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromBinary } from "@bufbuild/protobuf";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { grpcTarget } from "../../core/targets/grpc.js";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer } from "../gen/walletrpc/service_pb.js";
import type { NodeRpc, RunningRealServer, StartOptions } from "./lightwalletd.js";
import { binaryPath, type Pin } from "./pins.js";
import { freePort, RealServerError, spawnServer, waitUntil } from "./process.js";
import { stuckIngest, zainodArgs, zainodEnv, zainodFiles, zainodToml, type ZainodSetup } from "./zainod-config.js";

export async function startZainod(pin: Pin, node: NodeRpc, o: StartOptions): Promise<RunningRealServer> {
  const binary = binaryPath(pin);
  if (!existsSync(binary)) throw new RealServerError(`zainod ${pin.version} is not installed at ${binary} (npm run real:install -- --only zainod)`);
  const folder = mkdtempSync(join(tmpdir(), "zconform-zainod-"));
  const setup: ZainodSetup = {
    rpcUrl: node.url,
    network: node.network,
    folder,
    grpcPort: await freePort(),
    jsonRpcPort: await freePort(),
    ...(node.cookieFile !== undefined ? { cookieFile: node.cookieFile } : { rpcUser: node.user, rpcPassword: node.password }),
  };
  const files = zainodFiles(folder);
  // The folder is mkdtemp's (mode 0700): a password in the config is never readable by others.
  writeFileAtomic(files.config, zainodToml(setup));
  mkdirSync(files.tmp);
  chmodSync(files.config, 0o600);
  const proc = spawnServer({ binary, args: zainodArgs(setup), cwd: folder, logFile: files.log, logsToStdout: true, env: zainodEnv(setup) });
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
      `zainod ${pin.version} ingesting to height ${o.tip}`,
      proc,
      async () => {
        const obs = await target.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema));
        if (obs.code === 0) firstAnswerMs ??= performance.now() - t0;
        if (obs.code !== 0 || obs.messages.length !== 1) return false;
        return Number(fromBinary(BlockIDSchema, obs.messages[0]!).height) >= o.tip;
      },
      o.timeoutMs ?? 180_000,
      () => stuckIngest(existsSync(files.log) ? readFileSync(files.log, "utf8") : ""),
    );
    // Its JSON-RPC server is up (and has written its cookie) before its gRPC one answers.
    const jsonrpc = { url: `http://127.0.0.1:${setup.jsonRpcPort}`, auth: { kind: "cookie" as const, cookieFile: files.cookie } };
    return { pin, grpcUrl, jsonrpc, process: proc, ingestMs, firstAnswerMs: firstAnswerMs ?? ingestMs, dataDir: files.database, close };
  } catch (e) {
    await close();
    throw e;
  } finally {
    target.abort();
  }
}
