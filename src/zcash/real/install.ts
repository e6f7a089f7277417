// Installing the pinned real servers from their registries into the cache, idempotently:
// a binary already in place is kept. lightwalletd comes from the Go module proxy
// (`go mod download` then `go build` in the module's folder: `go install module@tag`
// stops on a 403 from the proxy's version list while it checks for deprecations), zainod
// and zebrad from crates.io with `cargo install --locked --root`.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { binaryPath, installRoot, isInstalled, type Pin } from "./pins.js";

export interface Step {
  command: string;
  args: string[];
  /** Working directory; "$module" = the folder `go mod download` printed. */
  cwd?: string;
}

/** The commands that install a pin, in order. */
export function installSteps(pin: Pin, env: NodeJS.ProcessEnv = process.env): Step[] {
  if (pin.registry === "go") {
    return [
      { command: "go", args: ["mod", "download", "-json", `${pin.module}@${pin.version}`] },
      {
        command: "go",
        args: ["build", "-trimpath", ...(pin.versionVariable ? ["-ldflags", `-X ${pin.versionVariable}=${pin.version}`] : []), "-o", binaryPath(pin, env), "."],
        cwd: "$module",
      },
    ];
  }
  return [
    {
      command: "cargo",
      args: ["install", pin.crate!, "--version", pin.version, "--locked", "--root", installRoot(pin, env), ...(pin.cargoFlags ?? [])],
    },
  ];
}

/** Where bindgen looks for libclang when LIBCLANG_PATH is not set (Debian's llvm-N folders first). */
function libclangFolders(env: NodeJS.ProcessEnv): string[] {
  if (env.LIBCLANG_PATH) return [env.LIBCLANG_PATH];
  const llvm = existsSync("/usr/lib")
    ? readdirSync("/usr/lib")
        .filter((d) => /^llvm-\d+$/.test(d))
        .map((d) => `/usr/lib/${d}/lib`)
    : [];
  return [...llvm, "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"];
}

const hasLibclang = (folder: string) => existsSync(folder) && readdirSync(folder).some((f) => /^libclang(-\d+(\.\d+)*)?\.so(\.\d+)*$/.test(f));

/**
 * What a pin's build needs that its registry does not bring, each with how to get it. zainod
 * and zebrad build RocksDB's bindings with bindgen, which loads libclang at build time: without
 * it cargo fails minutes into the build with a panic in `ensure_libclang_is_loaded`.
 */
export function missingPrerequisites(pin: Pin, env: NodeJS.ProcessEnv = process.env, folders: readonly string[] = libclangFolders(env)): string[] {
  if (pin.registry !== "crates.io") return [];
  if (folders.some(hasLibclang)) return [];
  return [
    `libclang (bindgen builds RocksDB's bindings with it; looked in ${folders.join(", ")}): apt-get install -y libclang-dev, or set LIBCLANG_PATH to the folder holding libclang.so`,
  ];
}

export interface InstallOutcome {
  pin: Pin;
  status: "present" | "installed" | "failed";
  seconds: number;
  binary: string;
  /** For a failure: the command and the last lines it printed. */
  error?: string;
}

interface Ran {
  code: number | null;
  stdout: string;
  tail: string;
}

function run(step: Step, cwd: string | undefined, onLine: (line: string) => void): Promise<Ran> {
  return new Promise((resolveRun) => {
    const child = spawn(step.command, step.args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let tail: string[] = [];
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line.trim()) continue;
        onLine(line);
        tail = [...tail.slice(-19), line];
      }
    };
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", keep);
    child.on("error", (e) => resolveRun({ code: null, stdout, tail: e.message }));
    child.on("close", (code) => resolveRun({ code, stdout, tail: tail.join("\n") }));
  });
}

/** Installs one pin unless its binary is present; never throws for a failed build. */
export async function installPin(pin: Pin, onLine: (line: string) => void = () => {}, env: NodeJS.ProcessEnv = process.env): Promise<InstallOutcome> {
  const binary = binaryPath(pin, env);
  if (isInstalled(pin, env)) return { pin, status: "present", seconds: 0, binary };
  const missing = missingPrerequisites(pin, env);
  if (missing.length > 0)
    return { pin, status: "failed", seconds: 0, binary, error: `not started: ${pin.name} ${pin.version} needs\n${missing.map((m) => `  ${m}`).join("\n")}` };
  mkdirSync(dirname(binary), { recursive: true });
  const t0 = performance.now();
  let moduleDir: string | undefined;
  for (const step of installSteps(pin, env)) {
    const ran = await run(step, step.cwd === "$module" ? moduleDir : step.cwd, onLine);
    const seconds = (performance.now() - t0) / 1000;
    if (ran.code !== 0) {
      return { pin, status: "failed", seconds, binary, error: `${step.command} ${step.args.join(" ")} exited ${ran.code ?? "(not started)"}:\n${ran.tail}` };
    }
    if (step.args[0] === "mod") moduleDir = (JSON.parse(ran.stdout) as { Dir?: string }).Dir;
  }
  const seconds = (performance.now() - t0) / 1000;
  if (!isInstalled(pin, env)) return { pin, status: "failed", seconds, binary, error: `the build finished but ${binary} is not there` };
  writeFileAtomic(
    `${installRoot(pin, env)}/installed.json`,
    `${JSON.stringify({ name: pin.name, version: pin.version, seconds: Math.round(seconds), at: new Date().toISOString() }, null, 2)}\n`,
  );
  return { pin, status: "installed", seconds, binary };
}
