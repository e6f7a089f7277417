// What real zainod needs to run against a Zebra-style JSON-RPC: its TOML config (keys as
// zainod 0.10.1's ZainodConfig reads them, unknown keys refused) and its command line
// (`zainod start --config FILE`). The "fetch" backend (JSON-RPC; 0.10.1 also calls it
// "rpc") reads the node with its cookie, or with a user and password. The network is a
// kind only: on regtest zainod adopts the activation heights the node reports in
// getblockchaininfo.upgrades, so the fixture's schedule needs no configuring here.
// The finalised state is ephemeral (served from the node, no database of its own);
// everything else zainod writes lives in one temporary folder.

import { join } from "node:path";

export interface ZainodSetup {
  /** The node's JSON-RPC, e.g. http://127.0.0.1:18232/ */
  rpcUrl: string;
  /** Cookie auth (Zebra's `.cookie` file); user and password are used when absent. */
  cookieFile?: string;
  rpcUser?: string;
  rpcPassword?: string;
  network: "mainnet" | "testnet" | "regtest";
  folder: string;
  grpcPort: number;
  /** Its own JSON-RPC server (zaino-serve's, cookie auth as Zebra's); off when absent. */
  jsonRpcPort?: number;
}

const NETWORK_KIND = { mainnet: "Mainnet", testnet: "Testnet", regtest: "Regtest" } as const;

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlString(s: string): string {
  return `"${s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => (c === "\\" || c === '"' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`))}"`;
}

export const zainodFiles = (folder: string) => ({
  config: join(folder, "zainod.toml"),
  database: join(folder, "db"),
  zebraDb: join(folder, "zebra-db-unused"),
  xdg: join(folder, "xdg"),
  /** Its TMPDIR: the ephemeral finalised state's temporary folder goes with the server's own. */
  tmp: join(folder, "tmp"),
  /** zainod logs to stdout and stderr only. */
  log: join(folder, "zainod.log"),
  /** Where its JSON-RPC server writes the cookie clients authenticate with (Zebra's `.cookie`, `__cookie__:<token>`). */
  cookieDir: join(folder, "cookies"),
  cookie: join(folder, "cookies", ".cookie"),
});

export function zainodToml(s: ZainodSetup): string {
  const url = new URL(s.rpcUrl);
  const f = zainodFiles(s.folder);
  const auth =
    s.cookieFile !== undefined
      ? [`validator_cookie_path = ${tomlString(s.cookieFile)}`]
      : [`validator_user = ${tomlString(s.rpcUser ?? "")}`, `validator_password = ${tomlString(s.rpcPassword ?? "")}`];
  return [
    `backend = "fetch"`,
    `network = ${tomlString(NETWORK_KIND[s.network])}`,
    `ephemeral_finalised_state = true`,
    `zebra_db_path = ${tomlString(f.zebraDb)}`,
    "",
    "[grpc_settings]",
    `listen_address = ${tomlString(`127.0.0.1:${s.grpcPort}`)}`,
    "",
    // zainod 0.10.1 and 0.9.0 (ZainodConfig.json_server_settings, zaino-serve's
    // JsonRpcServerConfig): the listen address, and a cookie_dir that turns cookie auth on,
    // the cookie written as Zebra writes its own.
    ...(s.jsonRpcPort !== undefined
      ? ["[json_server_settings]", `json_rpc_listen_address = ${tomlString(`127.0.0.1:${s.jsonRpcPort}`)}`, `cookie_dir = ${tomlString(f.cookieDir)}`, ""]
      : []),
    "[validator_settings]",
    `validator_jsonrpc_listen_address = ${tomlString(`${url.hostname}:${url.port}`)}`,
    ...auth,
    "",
    "[storage.database]",
    `path = ${tomlString(f.database)}`,
    // GiB: the fixture chains are tiny, and the machine is shared.
    "size = 1",
    "sync_write_batch_size = 1",
    "accumulator_rebuild_memory_size = 1",
    "",
  ].join("\n");
}

export function zainodArgs(s: ZainodSetup): string[] {
  return ["start", "--config", zainodFiles(s.folder).config];
}

/**
 * Its environment: XDG folders inside the temporary folder, plain (uncoloured) log lines,
 * and no ZAINO_* variables of the caller's, which would override the config file.
 */
export function zainodEnv(s: ZainodSetup, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const xdg = zainodFiles(s.folder).xdg;
  return {
    ...Object.fromEntries(Object.entries(base).filter(([k]) => !k.startsWith("ZAINO_"))),
    XDG_CONFIG_HOME: join(xdg, "config"),
    XDG_CACHE_HOME: join(xdg, "cache"),
    XDG_RUNTIME_DIR: join(xdg, "run"),
    TMPDIR: zainodFiles(s.folder).tmp,
    ZAINOLOG_FORMAT: "stream",
    ZAINOLOG_COLOR: "false",
  };
}

/**
 * zainod retries a block it cannot take forever, with growing pauses, logging
 * "ChainHead failed to advance; retrying, error: <why>, attempts: <n>". After `limit`
 * attempts the error is the answer: the block's <why>, else undefined.
 */
export function stuckIngest(log: string, limit = 5): string | undefined {
  const all = [...log.matchAll(/ChainHead failed to advance; retrying, error: (.*), attempts: (\d+)/g)];
  const last = all[all.length - 1];
  if (!last || Number(last[2]) < limit) return undefined;
  const synced = [...log.matchAll(/Syncing block, height: (\d+)/g)].pop();
  return `it stopped advancing${synced ? ` after block ${synced[1]}` : ""} (${last[2]} attempts): ${last[1]}`;
}
