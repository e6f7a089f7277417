// A representative subset of the mutation harness (bench/mutation.ts runs all of it):
// faults an audit once found the corpus and the ledger blind to, a fault in each of the
// two compact derivations (the oracle's and the fixture servers' own, written apart so
// that the live run sees a fault in either), and one of each other surface. Each must
// show as a divergence the unmutated run does not have.

import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { baselineOf, runMutant, startHarness, type Baseline, type Harness } from "../bench/mutation/harness.js";
import { allMutants } from "../bench/mutation/mutants.js";

const SUBSET = [
  // An ascending range that drops its last block, on the build whose ledger entries once matched any count.
  "zebrad-builtin/GetBlockRange/ascending-end-minus-one",
  "zebrad-builtin/GetBlock/drop-shielded-tx",
  // Mined transactions at height + 1, on the build whose mempool-height entry once matched every GetTransaction case.
  "zaino-0.9.0/GetTransaction/mined-height-plus-one",
  "zaino-0.10.1/GetMempoolTx/ignore-exclude",
  "oracle-compact/truncated-sapling-ciphertext",
  "fixture-compact/truncated-sapling-ciphertext",
  "reference/GetSubtreeRoots/root-byte-order",
  "lightwalletd/GetTreeState/hash-byte-order",
  "ztreamer-master/GetAddressUtxosStream/wrong-txid",
  "zaino-0.10.1/GetBlockRangeNullifiers/duplicate-first",
  "reference/getblock/value-changed",
  "zaino-0.10.1/getrawtransaction/value-changed",
];

let h: Harness;
let base: Baseline;
const mutants = allMutants().filter((m) => SUBSET.includes(m.id));

beforeAll(async () => {
  h = await startHarness();
  base = baselineOf(await h.run([...new Set(mutants.flatMap((m) => m.methods))], {}));
}, 120_000);
afterAll(() => h?.close());

test("the subset names existing mutants, and the unmutated run has nothing new", () => {
  expect(mutants.map((m) => m.id).sort()).toEqual([...SUBSET].sort());
  expect([...base.fresh]).toEqual([]);
});

test.each(SUBSET)(
  "%s is killed",
  async (id) => {
    const o = await runMutant(h, mutants.find((m) => m.id === id)!, base);
    expect({ id, killed: o.killed, absorbedBy: o.killed ? [] : o.absorbedBy }).toEqual({ id, killed: true, absorbedBy: [] });
    // Killed by the run itself, not only by real lightwalletd's recorded answers.
    expect(o.evidence.filter((e) => !e.startsWith("recorded: ")).length).toBeGreaterThan(0);
  },
  60_000,
);
