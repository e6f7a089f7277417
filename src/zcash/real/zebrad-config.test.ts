import { expect, test } from "@jest/globals";
import { zebradArgs, zebradEnv, zebradToml } from "./zebrad-config.js";

const setup = {
  folder: "/tmp/zb",
  rpcPort: 18232,
  grpcPort: 9067,
  minerAddress: "tmJymvcUCn1ctbghvTJpXBwHiMEB8P6wxNV",
  activationHeights: { overwinter: 1, canopy: 1, nu5: 10, nu6_1: 30 },
};

test("regtest without peers, activation heights under zebra-chain's upgrade names, in upgrade order", () => {
  const toml = zebradToml(setup);
  expect(toml).toMatch(/^\[network\]\nnetwork = "Regtest"\nlisten_addr = "127.0.0.1:0"\ninitial_mainnet_peers = \[\]\ninitial_testnet_peers = \[\]\n/);
  expect(toml).toContain('[network.testnet_parameters.activation_heights]\n"Overwinter" = 1\n"Canopy" = 1\n"NU5" = 10\n"NU6.1" = 30\n\n');
});

test("JSON-RPC with cookie auth and the built-in lightwallet gRPC on loopback ports, an ephemeral state, the miner address", () => {
  const toml = zebradToml(setup);
  expect(toml).toContain(
    '[rpc]\nlisten_addr = "127.0.0.1:18232"\nlightwalletd_listen_addr = "127.0.0.1:9067"\ncookie_dir = "/tmp/zb"\nenable_cookie_auth = true\n',
  );
  expect(toml).toContain('[state]\nephemeral = true\ncache_dir = "/tmp/zb/state"\n');
  expect(toml).toContain('[mining]\nminer_address = "tmJymvcUCn1ctbghvTJpXBwHiMEB8P6wxNV"\n');
  expect(zebradArgs(setup)).toEqual(["-c", "/tmp/zb/zebrad.toml", "start"]);
});

test("none of the caller's ZEBRA_ variables, which override the config file, reach zebrad; its temporary folders stay in its own", () => {
  expect(zebradEnv("/tmp/zb", { PATH: "/bin", ZEBRA_NETWORK__NETWORK: "Mainnet", ZEBRA_RPC__LISTEN_ADDR: "0.0.0.0:8232", TMPDIR: "/tmp" })).toEqual({
    PATH: "/bin",
    TMPDIR: "/tmp/zb/tmp",
  });
});
