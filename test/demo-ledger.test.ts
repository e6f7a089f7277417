// What `npm start` must show: the whole corpus against every emulated profile finds every
// deviation the profiles emulate, each explained by its ledger entry and nothing new; the
// ledger is precise (removing an entry makes exactly its divergences new) and honest (an
// entry for a quirk no profile shows is stale); and the reference against a second
// reference instance shows nothing at all.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { join } from "node:path";
import { inputsFromFixture, type RunInputs } from "../src/cli/inputs.js";
import { startFixtureNetwork } from "../src/zcash/fixture/network.js";
import { PROFILES, type ProfileName } from "../src/zcash/fixture/grpc/profiles.js";
import { deviationsOf } from "../src/zcash/fixture/jsonrpc/profiles.js";
import { classify, type BuildIdentity } from "../src/core/ledger/classify.js";
import { ledgerFindings } from "../src/core/ledger/findings.js";
import { ledgerOnChain, loadLedger, parseLedger, type Quirk } from "../src/core/ledger/quirk.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import { runSession, type SessionResult } from "../src/core/run/session.js";
import type { RunEvent } from "../src/core/results/events.js";
import type { CaseResult } from "../src/core/results/result.js";
import { DEFAULT_LIMITS, type NodeIdentity, type RunConfig } from "../src/core/targets/config.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { unshownStatedCases } from "./ledger-tightness.test-helper.js";

const CASES = join(import.meta.dirname, "..", "cases");
const quiet = { stdout: () => {}, stderr: () => {} };

type Shows = string | string[] | { unobservable: string };

/**
 * Each emulated deviation, and the ledger entry its divergences fall under — or why the
 * corpus run cannot see it. Read beside src/zcash/fixture/grpc/profiles.ts and cases/quirks.yaml.
 */
const LWD: Record<string, Shows> = {
  "lwd-getblock-by-hash-unimplemented": "lwd-getblock-by-hash-unimplemented",
  "lwd-treestate-hash-big-endian": "lwd-treestate-hash-big-endian",
  "lwd-send-quoted-txid": "lwd-send-quoted-txid",
  "lwd-pool-type-zero-unknown-code": "lwd-pool-type-zero-unknown",
  "lwd-pool-type-unknown-accepted": "lwd-pool-type-unknown-accepted",
  "lwd-subtree-protocol-text": {
    unobservable: "its code is the reference's since 0.5.4; error texts are not compared by the corpus (zconform fidelity compares them)",
  },
  "lwd-taddr-left-to-node": "lwd-taddr-left-to-node",
  "lwd-height-signed": "lwd-height-signed",
  "lwd-own-texts": { unobservable: "error texts only, which the corpus does not compare (zconform fidelity does)" },
  "lwd-keeps-empty-txs": "lwd-nullifiers-keep-empty-txs",
  "lwd-mempool-sorted": { unobservable: "mempool streams are declared unordered" },
  "lwd-mempool-no-vin": "lwd-mempool-no-vin",
  "lwd-ping-disabled": "ping-disabled",
  "lwd-status-codes": ["lwd-treestate-node-errors", "subtree-max-entries-u16"],
  "lwd-treestate-pre-sapling-error": "lwd-treestate-pre-sapling-error",
  "lwd-range-discontinuity-aborted": { unobservable: "only on a chain that moves, before lightwalletd's cache repairs a reorganization (zconform scenario)" },
};

const ZAINO_GRPC: Record<string, Shows> = {
  "zaino-internal-status": ["zaino-internal-status", "zaino-send-rejection-internal"],
  "zaino-range-unset-out-of-range": "zaino-range-unset-out-of-range",
  "zaino-height-zero-genesis": "zaino-height-zero-genesis",
  "zaino-short-hash-ignored": "zaino-short-hash-ignored",
  // Its codes show where they differ from the reference's (an unknown hash); its texts are
  // declared volatile in error cases. An empty exclude entry is refused, where the reference excludes nothing.
  "zaino-error-texts": ["zaino-block-hash-not-found-invalid-argument", "zaino-mempool-exclude-short-suffix-rejected", "subtree-max-entries-u16"],
  // Invalid and unknown values are INVALID_ARGUMENT, as in the reference; a repeated one shows.
  "zaino-pool-type-checks": "zaino-duplicate-pool-type-rejected",
  "zaino-taddr-left-to-node": "zaino-taddr-other-network-accepted",
  "zaino-address-limits": ["utxos-address-cap-1000", "balance-no-address-limit"],
  "zaino-taddr-range": ["zaino-taddr-range", "zaino-taddr-txids-end-zero"],
  "zaino-balance-stream-duplicates": "balance-stream-duplicate-counted-twice",
  "zaino-mempool-ignores-pooltypes": "zaino-mempool-ignores-pooltypes",
  "zaino-mempool-sorted": "zaino-mempool-own-order",
  "zaino-mempool-exclude-limit": "zaino-mempool-exclude-limit",
  "zaino-nonstandard-script-empty": "zaino-genesis-output-script-empty",
  "zaino-block-nullifiers-all-pools": "zaino-block-nullifiers-keep-transparent-txs",
  "zaino-nullifier-range-keeps-transparent": "zaino-nullifier-range-keeps-transparent",
  "zaino-upgrade-last-entry": "zaino-upgrade-last-entry",
  "zaino-sapling-activation-default-1": { unobservable: "the fixture's node always reports Sapling's activation" },
  "zaino-ping-unimplemented": "ping-disabled",
  "zaino-nagle-trailers": { unobservable: "a timing behaviour: `zconform latency` reports it (zaino-small-answers-40ms)" },
  "zaino-getblock-shielded-only": "zaino-getblock-shielded-only",
  "zaino-treestate-regtest-named-test": "zaino-treestate-regtest-named-test",
  "zaino-stream-deadline-ignored": "tonic-stream-deadline-ignored",
};

const ZAINO_JSONRPC: Record<string, Shows> = {
  "zaino-getrawtransaction-verbose-object": "zaino-getrawtransaction-verbose-object",
  "zaino-getrawtransaction-object-fields": "zaino-getrawtransaction-object-fields",
  "zaino-generic-error": "zaino-jsonrpc-generic-error",
  "zaino-no-getblockhash": "zaino-no-getblockhash",
  "zaino-getblockheader-verbose-required": "zaino-jsonrpc-param-strictness",
  "zaino-getblocksubsidy-height-required": "zaino-jsonrpc-param-strictness",
  "zaino-getrawmempool-no-verbose": ["zaino-jsonrpc-param-strictness", "zaino-jsonrpc-flags-ignored"],
  "zaino-getrawtransaction-no-blockhash": "zaino-jsonrpc-param-strictness",
  "zaino-sendrawtransaction-hex-only": "zaino-sendrawtransaction-hex-only",
  "zaino-getaddressutxos-ignores-chaininfo": ["zaino-jsonrpc-param-strictness", "zaino-jsonrpc-flags-ignored"],
  "zaino-getinfo-no-error-timestamp": {
    unobservable: "getinfo's errorstimestamp is volatile in the corpus (Zebra's snapshots redact it); `zconform fidelity` compares it",
  },
  "zaino-getmininginfo-zcashd-superset": "zaino-getmininginfo-superset",
  "zaino-z-validateaddress-shape": "zaino-z-validateaddress-shape",
  "zaino-getmempoolinfo-own-mempool": "zaino-getmempoolinfo-own-mempool",
  "zaino-only-methods": { unobservable: "served by Zaino alone: its builds are compared with each other, and they agree" },
  // Served by 0.10.1 alone of the Zaino builds: its errors differ from 0.9.0's "Method not found".
  "zaino-getaddressdeltas-forwarded": "zaino-getaddressdeltas-asks-zebra",
  // As real zainod 0.10.1 and 0.9.0 answered over the fixture's node.
  "zaino-getblock-own-not-found": "zaino-getblock-own-not-found",
  "zaino-getblock-header-bytes": ["zaino-getblock-header-bytes", "zaino-roots-from-node-trees"],
  "zaino-orchard-anchor-wire-order": "zaino-orchard-anchor-wire-order",
  "zaino-getblockheader-hash-only": "zaino-getblockheader-hash-only",
  "zaino-treestate-no-tip-offset": "zaino-treestate-no-tip-offset",
  // 0.9.0 alone, as real zainod 0.9.0 answered.
  "zaino-chain-supply-zero": "zaino-chain-supply-zero",
  "zaino-legacy-methods-ask-node": { unobservable: "served by Zaino alone: both builds ask the node, and agree" },
  "zaino-gettxoutsetinfo-needs-finalised-db": {
    unobservable: "served by Zaino alone: both builds refuse it without a persistent finalised database, and agree",
  },
  "zaino-gettxout-reserialized": "zaino-gettxout-null-fails",
  "zaino-getblocksubsidy-height-max": "zaino-getblocksubsidy-height-max",
  "zaino-sendrawtransaction-own-errors": "zaino-sendrawtransaction-own-errors",
};

const ZTREAMER: Record<string, Shows> = {
  "ztreamer-subtree-hash-wire-order": "subtree-completing-hash-wire-order",
  "ztreamer-balance-stream-duplicates": "balance-stream-duplicate-counted-twice",
  "ztreamer-balance-stream-distinct-limit": { unobservable: "no case streams more than 10,000 addresses; a repeat counts once, as in the reference" },
  "ztreamer-ping-very-insecure": { unobservable: "Ping's entry and exit are volatile, and its status is the reference's" },
  "ztreamer-getblock-compact-index": "ztreamer-getblock-compact-index",
  "ztreamer-range-checked-first": "ztreamer-range-checked-first",
  "ztreamer-range-stream-limit": { unobservable: "no case holds more than 16 range streams open at once" },
  // Its texts are volatile in error cases and most codes are the reference's; height 0 and
  // undecodable transactions show.
  "ztreamer-status-codes": [
    "ztreamer-height-zero-genesis",
    "ztreamer-send-undecodable-invalid-argument",
    "utxos-address-cap-1000",
    "balance-no-address-limit",
    "subtree-max-entries-u16",
  ],
  "ztreamer-stream-deadline-ignored": "tonic-stream-deadline-ignored",
};

const ZEBRA: Record<string, Shows> = {
  "zebra-no-transparent-fields": ["zebra-no-transparent-data", "zebra-pool-types-ignored"],
  "zebra-shielded-txs-only": "zebra-no-transparent-data",
  "zebra-nullifiers-drop-empty": "zebra-no-transparent-data",
  "zebra-status-codes": [
    "zebra-send-empty",
    "zebra-taddr-range",
    "zebra-range-above-tip-not-found",
    "zebra-range-height-zero-refused",
    "zebra-range-by-hash-refused",
    "zebra-exclude-too-long-skipped",
  ],
  "zebra-ping-disabled": "ping-disabled",
  // Its build fields are declared volatile (the oracle cannot vouch for them); the missing
  // upgrade fields show, since the fixture chain has pending upgrades.
  "zebra-lightdinfo": "zebra-lightdinfo-no-upgrade-fields",
  "zebra-stream-deadline-ignored": "tonic-stream-deadline-ignored",
};

const TABLES: Record<string, Shows> = { ...LWD, ...ZAINO_GRPC, ...ZAINO_JSONRPC, ...ZTREAMER, ...ZEBRA };

function deviationIds(profile: ProfileName): string[] {
  const grpc = PROFILES[profile].deviations.map((d) => d.id as string);
  const jsonrpc = profile === "zaino-0.9.0" || profile === "zaino-0.10.1" ? deviationsOf(profile).map((d) => d.id) : [];
  return [...grpc, ...jsonrpc];
}

function expectedQuirks(profile: ProfileName): string[] {
  return deviationIds(profile).flatMap((id) => {
    const shows = TABLES[id];
    if (shows === undefined) throw new Error(`deviation ${id} of ${profile} is missing from this test's table`);
    return typeof shows === "string" ? [shows] : Array.isArray(shows) ? shows : [];
  });
}

/** What each build is, as the run identified it (the node behind it as its server reported it). */
function identities(config: RunConfig): BuildIdentity[] {
  return config.builds.map((b) => ({
    name: b.name,
    implementation: b.implementation,
    version: b.version,
    protocolVersion: b.protocolVersion,
    ...(nodes.has(b.name) ? { node: nodes.get(b.name)! } : {}),
  }));
}

/** Each build's node as the run-start event gave it. */
const nodes = new Map<string, NodeIdentity>();
const recordNodes = {
  finish: async () => {},
  onEvent: (e: RunEvent) => {
    if (e.type === "run-start") for (const b of e.builds) if (b.node) nodes.set(b.name, b.node);
  },
};

/** The run's divergences classified again against another ledger. */
function reclassify(results: readonly CaseResult[], ledger: readonly Quirk[], builds: readonly BuildIdentity[]): CaseResult[] {
  const byName = new Map(builds.map((b) => [b.name, b]));
  return results.map((r) => ({
    ...r,
    divergences: r.divergences.map((d) => ({ ...d, quirk: classify(ledger, d, d, byName.get(d.build)!) })),
  }));
}

describe("the demo run against every emulated profile", () => {
  let inputs: RunInputs;
  let run: SessionResult;

  beforeAll(async () => {
    inputs = await inputsFromFixture({ cases: CASES }, quiet);
    run = await runSession({ ...inputs, reporters: [recordNodes], protocol: lightwalletProtocol });
  }, 180_000);
  afterAll(() => inputs?.network?.close());

  test("nothing is new, nothing is stale, and the reference never diverges", () => {
    expect(run.summary.newDivergences).toBe(0);
    expect(run.summary.stale).toEqual([]);
    expect(run.summary.expired).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.results.flatMap((r) => r.divergences).filter((d) => d.build === "reference")).toEqual([]);
    // Only cases declared for other chains are not run here.
    expect(run.results.filter((r) => r.skipped && !r.skipped.startsWith("only for chains")).map((r) => `${r.caseId}: ${r.skipped}`)).toEqual([]);
  });

  test.each(Object.keys(PROFILES).filter((p) => p !== "reference") as ProfileName[])(
    "%s: every observable deviation shows under its ledger entry, and only those entries",
    (profile) => {
      const shown = new Set(
        run.results
          .flatMap((r) => r.divergences)
          .filter((d) => d.build === profile)
          .map((d) => d.quirk),
      );
      const expected = new Set(expectedQuirks(profile));
      expect([...expected].filter((q) => !shown.has(q)).map((q) => `${q} never shown`)).toEqual([]);
      expect([...shown].filter((q) => !expected.has(q!)).map((q) => `${q} shown but no deviation of ${profile} explains it`)).toEqual([]);
    },
  );

  test("GetBlock carries every pool whatever protocol version a build speaks (documented in v0.4.1, silent in v0.4.0)", () => {
    const tip = run.results.find((r) => r.caseId === "GetBlock/tip")!;
    const mine = (build: string) => tip.divergences.filter((d) => d.build === build);
    // Zaino 0.10.1 speaks v0.5.0 (as the real zainod 0.10.1 reports) and leaves transparent data out.
    expect([...new Set(mine("zaino-0.10.1").map((d) => [d.left, d.quirk].join(" ")))]).toEqual(["oracle zaino-getblock-shielded-only"]);
    // Zaino 0.9.0 sends every pool: it conforms.
    expect(mine("zaino-0.9.0")).toEqual([]);
    // zebrad's server reports no version: it is held to the same rule, and lacks the data.
    expect(mine("zebrad-builtin").map((d) => d.left)).toContain("oracle");
    // Ztreamer speaks v0.5.0 and serves GetBlock from its shielded-only index.
    expect(mine("ztreamer-master").map((d) => d.quirk)).toEqual(["ztreamer-getblock-compact-index"]);
    expect(tip.verdict?.deviants.sort()).toEqual(["zaino-0.10.1", "zebrad-builtin", "ztreamer-master", "ztreamer-v0.1.0"]);
  });

  test("removing any one entry makes exactly its divergences new", () => {
    const ledger = loadLedger(join(CASES, "quirks.yaml"));
    const builds = identities(inputs.config);
    const all = run.results.flatMap((r) => r.divergences);
    for (const q of ledger) {
      const without = reclassify(
        run.results,
        ledger.filter((x) => x.id !== q.id),
        builds,
      ).flatMap((r) => r.divergences);
      const fresh = without.map((d, i) => (d.quirk === null ? i : -1)).filter((i) => i >= 0);
      const owned = all.map((d, i) => (d.quirk === q.id ? i : -1)).filter((i) => i >= 0);
      expect({ entry: q.id, fresh }).toEqual({ entry: q.id, fresh: owned });
    }
  });

  test("each case an entry names is one where the demo shows it (entries about real builds or other chains aside)", () => {
    const ledger = loadLedger(join(CASES, "quirks.yaml"));
    // Real-build evidence is judged by `demo --real`: the emulation need not show an entry on every case a real build did.
    const exempt: Record<string, string> = {
      ...Object.fromEntries(ledger.filter((q) => q.reference.includes("Evidence:")).map((q) => [q.id, "real-build evidence"])),
      // An intermittent entry shows only under a condition no run sets (a server just started).
      ...Object.fromEntries(ledger.filter((q) => q.intermittent !== undefined).map((q) => [q.id, "intermittent"])),
      "lwd-mempool-no-vin": "GetMempoolTx/exclude-shared-suffix is a case of the regtest chain, whose run shows it there",
      "lwd-treestate-pre-sapling-error": "its tip cases show it on chains whose tip is below Sapling (mainnet 0–20), not on the fixture chain",
    };
    expect(unshownStatedCases(ledger, inputs.cases, run.results, identities(inputs.config), exempt)).toEqual({});
  });

  test("an entry for a quirk no profile shows is stale, for each build it covers", () => {
    const phantom = parseLedger(
      [
        "quirks:",
        "  - id: zaino-data-loss",
        "    title: a quirk no profile emulates",
        "    kind: error-code",
        "    builds: [{ implementation: zaino }]",
        "    match: { methods: [GetBlock], path: status.code, shape: { to: [DATA_LOSS] } }",
        "    reference: this test",
        "    status: open",
      ].join("\n"),
      "phantom.yaml",
    );
    const findings = ledgerFindings(ledgerOnChain([...loadLedger(join(CASES, "quirks.yaml")), ...phantom], "fixture"), run.results, identities(inputs.config));
    expect(findings.stale.map((s) => [s.quirk, s.build])).toEqual([
      ["zaino-data-loss", "zaino-0.9.0"],
      ["zaino-data-loss", "zaino-0.10.1"],
    ]);
  });
});

test("the reference compared with a second reference instance shows zero divergences", async () => {
  const [a, b] = await Promise.all([startFixtureNetwork({ profiles: ["reference"] }), startFixtureNetwork({ profiles: ["reference"] })]);
  try {
    const [ra, rb] = [a.builds()[0]!, b.builds()[0]!];
    const config: RunConfig = {
      file: "(test)",
      chain: "fixture",
      oracle: { jsonrpc: { url: a.jsonrpc, auth: { kind: "cookie", cookieFile: a.cookie } }, source: { file: "(test)", line: 0 } },
      defaults: DEFAULT_LIMITS,
      builds: [
        { ...ra, name: "reference-a" },
        { ...rb, name: "reference-b" },
      ],
    };
    const run = await runSession({
      config,
      cases: loadCorpus(CASES, lightwalletProtocol),
      ledger: [],
      reporters: [],
      protocol: lightwalletProtocol,
      chain: { name: "fixture", network: a.model.network.name, anchors: a.anchors, dynamic: {} },
    });
    expect(run.summary.divergences).toBe(0);
    expect(Object.keys(run.summary.verdicts)).toEqual(["agree"]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}, 180_000);
