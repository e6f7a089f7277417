// What real lightwalletd needs to run against a Zebra-style JSON-RPC: a zcash.conf naming
// the node (rpcuser/rpcpassword/rpcbind/rpcport, read by its ConnConfigFromConf) and its
// command line (flags as `lightwalletd --help` lists them at v0.5.4). Everything lives in
// one temporary folder: the data dir, the log, the conf.

import { join } from "node:path";

export interface LightwalletdSetup {
  /** The node's JSON-RPC, e.g. http://127.0.0.1:18232/ */
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  network: "mainnet" | "testnet" | "regtest";
  folder: string;
  grpcPort: number;
  httpPort: number;
  /** Start with --ping-very-insecure (off by default, as every deployment runs it). */
  ping?: boolean;
}

export function zcashConf(s: LightwalletdSetup): string {
  const url = new URL(s.rpcUrl);
  return [
    `rpcuser=${s.rpcUser}`,
    `rpcpassword=${s.rpcPassword}`,
    `rpcbind=${url.hostname}`,
    `rpcport=${url.port}`,
    ...(s.network === "testnet" ? ["testnet=1"] : s.network === "regtest" ? ["regtest=1"] : []),
    "",
  ].join("\n");
}

export const lightwalletdFiles = (folder: string) => ({
  conf: join(folder, "zcash.conf"),
  data: join(folder, "data"),
  log: join(folder, "lightwalletd.log"),
});

export function lightwalletdArgs(s: LightwalletdSetup): string[] {
  const f = lightwalletdFiles(s.folder);
  return [
    "--no-tls-very-insecure",
    "--grpc-bind-addr",
    `127.0.0.1:${s.grpcPort}`,
    "--http-bind-addr",
    `127.0.0.1:${s.httpPort}`,
    "--data-dir",
    f.data,
    "--log-file",
    f.log,
    "--zcash-conf-path",
    f.conf,
    ...(s.ping ? ["--ping-very-insecure"] : []),
  ];
}

/**
 * The next height its ingestor waits for, from its JSON log ("Waiting for block: N"
 * once its cache holds every block below N); undefined before the first such line.
 */
export function waitingForHeight(log: string): number | undefined {
  const all = [...log.matchAll(/Waiting for block: (\d+)/g)];
  const last = all[all.length - 1];
  return last ? Number(last[1]) : undefined;
}
