// What real zebrad needs to run a regtest chain of its own on this machine: its TOML
// config (keys as zebrad 7.0.0 reads them: `zebrad generate` prints the sections, the
// activation heights live in [network.testnet_parameters.activation_heights] under the
// names zebra-chain's ConfiguredActivationHeights serialises — "NU5", "NU6.1"), and its
// command line. No peers, an ephemeral state, JSON-RPC with cookie auth, and the
// lightwallet gRPC server zebrad carries itself; everything lives in one temporary folder.
// zebrad reads ZEBRA_SECTION__KEY variables over its config file, so none of the caller's
// reach it.

import { join } from "node:path";
import { UPGRADE_NAMES, UPGRADES, type Upgrade } from "../codec/network.js";
import { tomlString } from "./zainod-config.js";

export interface ZebradSetup {
  folder: string;
  rpcPort: number;
  /** zebrad's own CompactTxStreamer (rpc.lightwalletd_listen_addr). */
  grpcPort: number;
  /** Where the coinbase of a block mined with `generate` pays (a regtest t-address or unified address). */
  minerAddress: string;
  activationHeights: Partial<Record<Upgrade, number>>;
}

export const zebradFiles = (folder: string) => ({
  config: join(folder, "zebrad.toml"),
  state: join(folder, "state"),
  /** zebrad writes `.cookie` here. */
  cookieDir: folder,
  cookie: join(folder, ".cookie"),
  /** zebrad logs to stdout only. */
  log: join(folder, "zebrad.log"),
  /** Its TMPDIR: an ephemeral state lives in a temporary folder that a killed zebrad leaves behind. */
  tmp: join(folder, "tmp"),
});

export function zebradToml(s: ZebradSetup): string {
  const f = zebradFiles(s.folder);
  const heights = UPGRADES.filter((u) => s.activationHeights[u] !== undefined).map((u) => `${tomlString(UPGRADE_NAMES[u])} = ${s.activationHeights[u]}`);
  return [
    "[network]",
    `network = "Regtest"`,
    // Port 0: no other node is ever asked to connect, and no two runs collide.
    `listen_addr = "127.0.0.1:0"`,
    "initial_mainnet_peers = []",
    "initial_testnet_peers = []",
    "cache_dir = false",
    "",
    "[network.testnet_parameters.activation_heights]",
    ...heights,
    "",
    "[rpc]",
    `listen_addr = ${tomlString(`127.0.0.1:${s.rpcPort}`)}`,
    `lightwalletd_listen_addr = ${tomlString(`127.0.0.1:${s.grpcPort}`)}`,
    `cookie_dir = ${tomlString(f.cookieDir)}`,
    "enable_cookie_auth = true",
    "",
    "[state]",
    "ephemeral = true",
    `cache_dir = ${tomlString(f.state)}`,
    "",
    "[mining]",
    `miner_address = ${tomlString(s.minerAddress)}`,
    "",
    "[tracing]",
    "use_color = false",
    "",
  ].join("\n");
}

export function zebradArgs(s: ZebradSetup): string[] {
  return ["-c", zebradFiles(s.folder).config, "start"];
}

export function zebradEnv(folder: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(base).filter(([k]) => !k.startsWith("ZEBRA_"))), TMPDIR: zebradFiles(folder).tmp };
}
