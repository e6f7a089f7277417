// One lightwalletd process in darkside mode: no node behind it, plaintext gRPC on a free
// local port, its database and log in a temporary folder that goes away with it. The
// process lives only as long as its owner: stop() ends it (SIGTERM, then SIGKILL), and
// darkside's own timeout ends it after ten minutes should its owner die first.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryPath, loadPins, type Pin, pinsOf } from "./pins.js";
import { freePort } from "./process.js";

/** The lightwalletd darkside runs are measured with: the version real-servers.yaml pins (read when first asked, not at every start). */
let pin: Pin | undefined;
function darksidePin(): Pin {
  return (pin ??= pinsOf(loadPins(), "lightwalletd")[0]!);
}

export function lightwalletdVersion(): string {
  return darksidePin().version;
}

/** Where the binary is: $ZCONFORM_LIGHTWALLETD, else the install cache of the pinned version. */
export function lightwalletdBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.ZCONFORM_LIGHTWALLETD ?? binaryPath(darksidePin(), env);
}

export interface DarksideProcess {
  /** http:// URL of its gRPC server (CompactTxStreamer and DarksideStreamer). */
  grpcUrl: string;
  binary: string;
  /** What it logged so far (JSON lines), for error messages. */
  log(): string;
  stop(): Promise<void>;
}

export interface StartDarksideOptions {
  binary?: string;
  /** How long to wait for the gRPC port; default 15 s. */
  readyTimeoutMs?: number;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ port, host: "127.0.0.1" });
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startDarkside(o: StartDarksideOptions = {}): Promise<DarksideProcess> {
  const binary = o.binary ?? lightwalletdBinary();
  if (!existsSync(binary)) throw new Error(`lightwalletd not found at ${binary} (npm run real:install -- --only lightwalletd, or set ZCONFORM_LIGHTWALLETD)`);
  const dir = mkdtempSync(join(tmpdir(), "zconform-darkside-"));
  const logFile = join(dir, "lightwalletd.log");
  const [grpcPort, httpPort] = [await freePort(), await freePort()];
  const child = spawn(
    binary,
    [
      "--darkside-very-insecure",
      "--no-tls-very-insecure",
      "--grpc-bind-addr",
      `127.0.0.1:${grpcPort}`,
      "--http-bind-addr",
      `127.0.0.1:${httpPort}`,
      "--data-dir",
      join(dir, "data"),
      "--log-file",
      logFile,
      "--darkside-timeout",
      "10",
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const log = () => `${existsSync(logFile) ? readFileSync(logFile, "utf8") : ""}${stderr}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (o.readyTimeoutMs ?? 15_000);
  try {
    for (;;) {
      const failed = await Promise.race([spawnError, new Promise<undefined>((r) => setTimeout(() => r(undefined), 100))]);
      if (failed) throw new Error(`lightwalletd (${binary}) did not start: ${failed.message}`);
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`lightwalletd exited (${child.exitCode ?? child.signalCode}) before serving:\n${log()}`);
      if (await accepts(grpcPort)) break;
      if (Date.now() > deadline) throw new Error(`lightwalletd did not open its gRPC port ${grpcPort} in time:\n${log()}`);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { grpcUrl: `http://127.0.0.1:${grpcPort}`, binary, log, stop };
}
