import { expect, test } from "@jest/globals";
import type { ChainProfile } from "../core/corpus/chain-profile.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { regtestChainProfile, regtestCommand } from "./regtest.js";

const profile: ChainProfile = {
  name: "regtest",
  network: "regtest",
  chainName: "test",
  anchors: { genesis: 0, nu5_activation: 10 },
  dynamic: { tip: "tip_height" },
};

test("the profile's anchors must agree with the mined chain, which supplies every other anchor", () => {
  const chain = { genesis: 0, nu5_activation: 10, tip: 300, genesis_hash: "029f", sapling_subtrees: 1 };
  // Read from the mined chain already, the run does not read the anchors again from the oracle.
  expect(regtestChainProfile(profile, chain)).toEqual({ ...profile, anchors: chain, discover: false });
  expect(() => regtestChainProfile(profile, { ...chain, nu5_activation: 12 })).toThrow(
    "chain profile regtest: nu5_activation is 10 but the mined chain has 12",
  );
});

test("a pool without a completed subtree has no subtree count to plan with", () => {
  expect(regtestChainProfile(profile, { sapling_subtrees: 0, orchard_subtrees: 0 }).anchors).toEqual({ genesis: 0, nu5_activation: 10 });
});

test("too short a chain is refused before anything starts or is written (exit 2)", async () => {
  const err: string[] = [];
  const dir = join(tmpdir(), `zconform-regtest-refused-${process.pid}`);
  const code = await regtestCommand({ dir, blocks: 20, cases: "cases" }, { stdout: () => {}, stderr: (l) => err.push(l) });
  expect(code).toBe(2);
  expect(err).toEqual(["--blocks: a regtest chain of 20 blocks ends before every upgrade is active (the last activates at 30); mine more"]);
  expect(existsSync(dir)).toBe(false);
});
