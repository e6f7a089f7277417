import { expect, test } from "@jest/globals";
import { stuckIngest, tomlString, zainodArgs, zainodEnv, zainodToml } from "./zainod-config.js";

const setup = { rpcUrl: "http://127.0.0.1:18232/", cookieFile: "/tmp/fx/.cookie", network: "regtest" as const, folder: "/tmp/zd", grpcPort: 9067 };

test("the config names the fetch backend, the regtest kind, ephemeral state and the node's cookie", () => {
  const toml = zainodToml(setup);
  expect(toml).toMatch(/^backend = "fetch"$/m);
  expect(toml).toMatch(/^network = "Regtest"$/m);
  expect(toml).toMatch(/^ephemeral_finalised_state = true$/m);
  expect(toml).toMatch(/\[validator_settings\]\nvalidator_jsonrpc_listen_address = "127.0.0.1:18232"\nvalidator_cookie_path = "\/tmp\/fx\/.cookie"\n/);
  expect(toml).not.toMatch(/validator_user|validator_password/);
});

test("its own JSON-RPC server on a loopback port, with cookie auth in a folder of its own; none without a port", () => {
  const toml = zainodToml({ ...setup, jsonRpcPort: 8237 });
  expect(toml).toMatch(/\[json_server_settings\]\njson_rpc_listen_address = "127.0.0.1:8237"\ncookie_dir = "\/tmp\/zd\/cookies"\n/);
  expect(zainodToml(setup)).not.toMatch(/json_server_settings/);
});

test("without a cookie it authenticates with user and password, escaped as TOML strings", () => {
  const toml = zainodToml({ ...setup, cookieFile: undefined, rpcUser: "u", rpcPassword: 'p"w\\d' });
  expect(toml).toContain('validator_user = "u"\nvalidator_password = "p\\"w\\\\d"');
  expect(tomlString("a\nb")).toBe('"a\\u000ab"');
});

test("gRPC on its own loopback port without TLS; its database and XDG folders inside the folder", () => {
  const toml = zainodToml(setup);
  expect(toml).toMatch(/\[grpc_settings\]\nlisten_address = "127.0.0.1:9067"\n/);
  expect(toml).not.toMatch(/tls/);
  expect(toml).toMatch(/\[storage\.database\]\npath = "\/tmp\/zd\/db"/);
  expect(zainodArgs(setup)).toEqual(["start", "--config", "/tmp/zd/zainod.toml"]);
  const env = zainodEnv(setup, { PATH: "/bin", ZAINO_NETWORK: "Mainnet" });
  expect(env.ZAINO_NETWORK).toBeUndefined();
  expect(env).toMatchObject({
    PATH: "/bin",
    XDG_CACHE_HOME: "/tmp/zd/xdg/cache",
    XDG_RUNTIME_DIR: "/tmp/zd/xdg/run",
    TMPDIR: "/tmp/zd/tmp",
    ZAINOLOG_COLOR: "false",
  });
});

test("an ingest is stuck once zainod has retried one block five times, and the error names the block's reason", () => {
  const line = (n: number) =>
    `  03:16:23.287  WARN zaino_chain_head_service::service: ChainHead failed to advance; retrying, error: validator unavailable: deserialize: parse error: Invalid jubjub::AffinePoint value for Sapling EphemeralPublicKey, attempts: ${n}`;
  const synced = "  03:16:23.281  INFO zaino_chain_head_service::service: Syncing block, height: 10, hash: 8b29";
  expect(stuckIngest([synced, line(1), line(4)].join("\n"))).toBeUndefined();
  expect(stuckIngest([synced, line(1), line(5)].join("\n"))).toBe(
    "it stopped advancing after block 10 (5 attempts): validator unavailable: deserialize: parse error: Invalid jubjub::AffinePoint value for Sapling EphemeralPublicKey",
  );
  expect(stuckIngest("  INFO zainodlib: zainod started")).toBeUndefined();
});
