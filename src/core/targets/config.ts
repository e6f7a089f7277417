// zconform.config.yaml: which builds to check, where they listen, how to authenticate,
// and the limits each run uses. Every problem names the file, the line and the field,
// and all problems are reported at once.

import { Ajv } from "ajv";
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import { ConfigError, type ConfigProblem } from "./config-errors.js";
import { configSchema } from "./config-schema.js";
import { fieldName, type PathPart } from "../io/located-yaml.js";
import { schemaProblems, validatorsByImplementations, X_MESSAGE } from "../io/schema-problems.js";
import { readConfigYaml } from "./config-yaml.js";
import type { Auth, GrpcEndpoint, JsonRpcEndpoint } from "./endpoint.js";

export type { Auth, GrpcEndpoint, JsonRpcEndpoint } from "./endpoint.js";
export { describeEndpoint, isInsecure } from "./endpoint.js";
export { redact, secretsOf } from "./secrets.js";
export { ConfigError, type ConfigProblem } from "./config-errors.js";
export { formatProblem } from "../io/located-yaml.js";

/** One of the protocol's implementation names (src/core/run/protocol.ts `implementations`). */
export type Implementation = string;

/** What the config needs of the protocol: the implementation names a build may declare. */
export interface Implementations {
  implementations: readonly string[];
}

export interface Limits {
  concurrency: number;
  deadlineMs: number;
  maxMessageBytes: number;
  /** Most bytes one call keeps: the sum of its messages (a JSON-RPC body is one). */
  maxCallBytes: number;
  maxStreamMessages: number;
  /** Timeouts in a row after which the server is unresponsive and its later calls are not sent (src/core/run/unresponsive.ts). */
  unresponsiveAfter?: number;
}

/** Answer bytes all calls of a run may hold at once, whatever the builds' own limits. */
export const DEFAULT_MAX_RUN_BYTES = 2 * 1024 * 1024 * 1024;

export const DEFAULT_LIMITS: Limits = {
  concurrency: 4,
  deadlineMs: 30_000,
  maxMessageBytes: 16 * 1024 * 1024,
  maxCallBytes: 64 * 1024 * 1024,
  maxStreamMessages: 100_000,
  unresponsiveAfter: 3,
};

/** The node a build is backed by (zebrad 7.0.0, zcashd 6.2.0, …). */
export interface NodeIdentity {
  implementation: string;
  version?: string;
}

/** A server under test. Limits are resolved: the build's own, else `defaults`, else built-in. */
export interface Build extends Limits {
  name: string;
  implementation: Implementation;
  version?: string;
  /** Declared lightwallet-protocol version; when absent, read from GetLightdInfo. */
  protocolVersion?: string;
  grpc?: GrpcEndpoint;
  jsonrpc?: JsonRpcEndpoint;
  /** An emulated profile of the embedded fixture network, never the real thing. */
  emulated: boolean;
  profile?: string;
  /** A real server zconform started from a pinned install: the pin, as reports show it. */
  pin?: string;
  /**
   * The node this build is backed by, when it is not the run's oracle: a name in
   * RunConfig.nodeOracles. Oracle cases measure the build against that node's answer.
   */
  oracle?: string;
  /** The node behind the build as the config declares it; otherwise what the server reports. */
  node?: NodeIdentity;
  source: { file: string; line: number };
}

export interface Oracle {
  jsonrpc: JsonRpcEndpoint;
  source: { file: string; line: number };
}

type Path = PathPart[];

export interface RunConfig {
  /** The config file as named by the caller. */
  file: string;
  chain: string;
  oracle?: Oracle;
  /** Further nodes, by name, that builds naming them (Build.oracle) are measured against. */
  nodeOracles?: Record<string, Oracle>;
  defaults: Limits;
  /** Answer bytes in flight across every call of the run; DEFAULT_MAX_RUN_BYTES when absent. */
  maxRunBytes?: number;
  builds: Build[];
}

/** A real config is a few kilobytes. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface ParseOptions {
  /** Variables for `${NAME}`; default process.env. */
  env?: Record<string, string | undefined>;
  /** Directory relative paths resolve against; default the config file's directory. */
  baseDir?: string;
  /** Check that caFile exists. Default true. */
  checkFiles?: boolean;
}

export function loadConfig(path: string, protocol: Implementations, opts: ParseOptions = {}): RunConfig {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_CONFIG_BYTES) {
      throw new ConfigError([{ file: path, line: 1, field: "", message: `the config is ${size} bytes; the limit is ${MAX_CONFIG_BYTES}` }]);
    }
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError([{ file: path, line: 1, field: "", message: `cannot read: ${(e as Error).message}` }]);
  }
  return parseConfig(text, path, protocol, opts);
}

const validatorFor = validatorsByImplementations(() => {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
  ajv.addVocabulary([X_MESSAGE]);
  return ajv;
}, configSchema);

interface RawEndpoint {
  url: string;
  caFile?: string;
  insecureSkipVerify?: boolean;
  serverName?: string;
  user?: string;
  password?: string;
  bearerToken?: string;
  cookieFile?: string;
  headers?: Record<string, string>;
  public?: string[];
}
interface RawBuild extends Partial<Limits> {
  name: string;
  implementation: Implementation;
  version?: string;
  protocolVersion?: string;
  grpc?: RawEndpoint;
  jsonrpc?: RawEndpoint;
  emulated?: boolean;
  profile?: string;
  oracle?: string;
  node?: NodeIdentity;
}
interface RawConfig {
  chain: string;
  oracle?: { jsonrpc: RawEndpoint };
  nodeOracles?: Record<string, { jsonrpc: RawEndpoint }>;
  defaults?: Partial<Limits> & { maxRunBytes?: number };
  builds: RawBuild[];
}

export function parseConfig(text: string, fileName: string, protocol: Implementations, opts: ParseOptions = {}): RunConfig {
  const yaml = readConfigYaml(text, fileName, opts.env ?? process.env);
  const problems: ConfigProblem[] = [...yaml.problems];
  const add = (line: number, path: Path, message: string) => problems.push({ file: fileName, line, field: fieldName(path), message });
  const lineAt = (path: Path): number => yaml.lineOf(path);
  // undefined: the YAML did not parse, and its errors are already in `problems`.
  if (yaml.value === undefined) throw new ConfigError(problems);
  if (yaml.value === null) {
    add(1, [], "the file is empty");
    throw new ConfigError(problems);
  }

  problems.push(...schemaProblems(validatorFor(protocol.implementations), yaml));
  if (problems.length > 0) throw new ConfigError(sorted(problems));

  const raw = yaml.value as RawConfig;
  const baseDir = opts.baseDir ?? dirname(resolve(fileName));
  const ctx: EndpointContext = { baseDir, checkFiles: opts.checkFiles ?? true, add, lineAt };
  const { maxRunBytes, ...buildDefaults } = raw.defaults ?? {};
  const defaults: Limits = { ...DEFAULT_LIMITS, ...buildDefaults };
  const config: RunConfig = { file: fileName, chain: raw.chain, defaults, builds: [] };
  if (maxRunBytes !== undefined) config.maxRunBytes = maxRunBytes;
  if (raw.oracle) {
    config.oracle = {
      jsonrpc: endpointFrom(raw.oracle.jsonrpc, ["oracle", "jsonrpc"], ctx),
      source: { file: fileName, line: lineAt(["oracle"]) },
    };
  }
  if (raw.nodeOracles) {
    config.nodeOracles = Object.fromEntries(
      Object.entries(raw.nodeOracles).map(([name, node]) => [
        name,
        {
          jsonrpc: endpointFrom(node.jsonrpc, ["nodeOracles", name, "jsonrpc"], ctx),
          source: { file: fileName, line: lineAt(["nodeOracles", name]) },
        },
      ]),
    );
  }
  const seen = new Map<string, number>();
  raw.builds.forEach((b, i) => {
    const at: Path = ["builds", i];
    const first = seen.get(b.name);
    if (first !== undefined) add(lineAt([...at, "name"]), [...at, "name"], `duplicate build name "${b.name}" (also builds[${first}])`);
    else seen.set(b.name, i);
    if (!b.grpc && !b.jsonrpc) add(lineAt(at), at, "needs a grpc or a jsonrpc endpoint (or both)");
    if (b.emulated && !b.profile) add(lineAt([...at, "emulated"]), [...at, "profile"], "is required when emulated is true");
    if (b.profile && !b.emulated) add(lineAt([...at, "profile"]), [...at, "profile"], "only applies to emulated builds (emulated: true)");
    const build: Build = {
      name: b.name,
      implementation: b.implementation,
      emulated: b.emulated === true,
      concurrency: b.concurrency ?? defaults.concurrency,
      deadlineMs: b.deadlineMs ?? defaults.deadlineMs,
      maxMessageBytes: b.maxMessageBytes ?? defaults.maxMessageBytes,
      maxCallBytes: b.maxCallBytes ?? defaults.maxCallBytes,
      maxStreamMessages: b.maxStreamMessages ?? defaults.maxStreamMessages,
      unresponsiveAfter: b.unresponsiveAfter ?? defaults.unresponsiveAfter,
      source: { file: fileName, line: lineAt(at) },
    };
    if (b.version !== undefined) build.version = b.version;
    if (b.protocolVersion !== undefined) build.protocolVersion = b.protocolVersion;
    if (b.profile !== undefined) build.profile = b.profile;
    if (b.node !== undefined) build.node = b.node;
    if (b.oracle !== undefined) {
      if (!raw.nodeOracles?.[b.oracle]) {
        const known = Object.keys(raw.nodeOracles ?? {});
        add(
          lineAt([...at, "oracle"]),
          [...at, "oracle"],
          `names no node of nodeOracles (${known.length > 0 ? `known: ${known.join(", ")}` : "the config has none"})`,
        );
      } else if (!raw.oracle) add(lineAt([...at, "oracle"]), [...at, "oracle"], "a build backed by its own node needs the run's oracle too (oracle.jsonrpc)");
      build.oracle = b.oracle;
    }
    if (b.grpc) build.grpc = endpointFrom(b.grpc, [...at, "grpc"], ctx);
    if (b.jsonrpc) build.jsonrpc = endpointFrom(b.jsonrpc, [...at, "jsonrpc"], ctx);
    config.builds.push(build);
  });
  if (problems.length > 0) throw new ConfigError(sorted(problems));
  return config;
}

interface EndpointContext {
  baseDir: string;
  checkFiles: boolean;
  add(line: number, path: Path, message: string): void;
  lineAt(path: Path): number;
}

function endpointFrom(raw: RawEndpoint, at: Path, ctx: EndpointContext): GrpcEndpoint {
  const field = (k: string): Path => [...at, k];
  const complain = (k: string, message: string) => ctx.add(ctx.lineAt(field(k)), field(k), message);
  let url: URL;
  try {
    url = new URL(raw.url);
  } catch {
    complain("url", "must be a URL (http:// or https://)");
    return { url: raw.url };
  }
  const out: GrpcEndpoint = { url: raw.url };
  const methods: Auth[] = [];
  // Credentials in the URL would be printed wherever the URL is; move them out of it.
  if (url.username || url.password) {
    const user = percentDecoded(url.username);
    const password = percentDecoded(url.password);
    // The message must not repeat the credentials.
    if (user === undefined || password === undefined) complain("url", "the user or password in the URL is not valid percent-encoding");
    else methods.push({ kind: "basic", user, password, userInUrl: true });
    url.username = "";
    url.password = "";
    out.url = url.toString().replace(/\/$/, raw.url.endsWith("/") ? "/" : "");
  }
  if (raw.user !== undefined || raw.password !== undefined) {
    if (raw.user === undefined) complain("password", "needs user as well");
    else if (raw.password === undefined) complain("user", "needs password as well");
    else methods.push({ kind: "basic", user: raw.user, password: raw.password });
  }
  if (raw.bearerToken !== undefined) methods.push({ kind: "bearer", token: raw.bearerToken });
  if (raw.cookieFile !== undefined) methods.push({ kind: "cookie", cookieFile: resolvePath(raw.cookieFile, ctx.baseDir) });
  if (methods.length > 1) {
    const k = raw.cookieFile !== undefined ? "cookieFile" : raw.bearerToken !== undefined ? "bearerToken" : "user";
    complain(k, "use one way to authenticate: user/password, bearerToken, cookieFile or credentials in the URL");
  }
  if (methods[0]) out.auth = methods[0];

  const tlsFields = ["caFile", "insecureSkipVerify", "serverName"] as const;
  if (url.protocol === "http:") {
    for (const k of tlsFields) if (raw[k] !== undefined) complain(k, "only applies to https:// URLs");
  }
  if (raw.caFile !== undefined) {
    out.caFile = resolvePath(raw.caFile, ctx.baseDir);
    if (ctx.checkFiles && !existsSync(out.caFile)) complain("caFile", `file not found: ${out.caFile}`);
  }
  if (raw.insecureSkipVerify === true) out.insecureSkipVerify = true;
  if (raw.serverName !== undefined) out.serverName = raw.serverName;
  if (raw.headers) {
    out.headers = {};
    for (const [k, v] of Object.entries(raw.headers)) {
      const name = k.toLowerCase();
      if (name === "authorization" && out.auth) complain("headers", "authorization header conflicts with the credentials given");
      out.headers[name] = v;
    }
  }
  if (raw.public) out.public = raw.public.map((n) => n.toLowerCase());
  return out;
}

/** decodeURIComponent, or undefined for text that is not valid percent-encoding ("%4"). */
function percentDecoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** `~` is the home directory; relative paths are relative to the config file. */
export function resolvePath(p: string, baseDir: string): string {
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? p : resolve(baseDir, p);
}

function sorted(problems: ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort((a, b) => a.line - b.line);
}
