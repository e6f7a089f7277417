// The mutants: each is one faulty build (a fixture profile whose answers to one rpc or
// JSON-RPC method are changed) or one fault in a compact derivation: the oracle's (the
// codec's) or the fixture servers' own. Ids are stable: survivors.yaml refers to them.

import { Code } from "@connectrpc/connect";
import { JSONRPC_METHODS } from "../../src/zcash/jsonrpc-methods.js";
import { PROFILE_NAMES, type ProfileName } from "../../src/zcash/fixture/grpc/profiles.js";
import type { GrpcMutation, Injection, JsonRpcMutation } from "./inject.js";
import {
  compactTxs,
  dropFirst,
  dropJsonItem,
  dropLast,
  dropShieldedTx,
  duplicateFirst,
  each,
  flipLast,
  perturbJson,
  recode,
  reversed,
  reversedHex,
  swapFirstTwo,
  truncateOrchardCiphertext,
  truncateSaplingCiphertext,
} from "./operators.js";

/** Where a mutant lives: one build's gRPC or JSON-RPC side, or one of the two compact derivations. */
export type Surface = "grpc" | "jsonrpc" | "compact";

export interface Mutant {
  id: string;
  /** The build it mutates ("compact" for a compact derivation). */
  build: ProfileName | "compact";
  surface: Surface;
  /** What kind of fault (dropped item, byte order, status, …). */
  operator: string;
  title: string;
  /** The rpcs or JSON-RPC methods whose cases can show it. */
  methods: string[];
  inject: Injection;
}

function grpcMutant(build: ProfileName, operator: string, title: string, m: GrpcMutation): Mutant {
  return {
    id: `${build}/${m.rpc}/${operator}`,
    build,
    surface: "grpc",
    operator,
    title,
    methods: [m.rpc],
    inject: { grpc: (p, rpc) => (p === build && rpc === m.rpc ? m : undefined) },
  };
}

function jsonRpcMutant(build: ProfileName, operator: string, title: string, m: JsonRpcMutation): Mutant {
  return {
    id: `${build}/${m.method}/${operator}`,
    build,
    surface: "jsonrpc",
    operator,
    title,
    methods: [m.method],
    inject: { jsonrpc: (p, method) => (p === build && method === m.method ? m : undefined) },
  };
}

const COMPACT_RPCS = ["GetBlock", "GetBlockNullifiers", "GetBlockRange", "GetBlockRangeNullifiers", "GetMempoolTx"];

/**
 * A fault in one of the two compact derivations, which are written apart on purpose: the
 * codec's (src/zcash/codec/compact.ts), which the oracle applies to the blocks it decodes,
 * and the fixture servers' own (src/zcash/fixture/grpc/compact.ts). A fault in either shows
 * in the live run as every build against the oracle.
 */
function compactMutants(operator: string, title: string, tx: (t: ReturnType<typeof compactTxs>[number]) => void): Mutant[] {
  const byRpc = new Map(COMPACT_RPCS.map((rpc) => [rpc, { rpc, messages: each((m) => compactTxs(m).forEach(tx)) } satisfies GrpcMutation]));
  return [
    {
      id: `oracle-compact/${operator}`,
      build: "compact",
      surface: "compact",
      operator,
      title: `codec compactTx: ${title}`,
      methods: COMPACT_RPCS,
      inject: { oracle: (rpc) => byRpc.get(rpc) },
    },
    {
      id: `fixture-compact/${operator}`,
      build: "compact",
      surface: "compact",
      operator,
      title: `fixtureCompactTx: ${title}`,
      methods: COMPACT_RPCS,
      inject: { grpc: (_p, rpc) => byRpc.get(rpc) },
    },
  ];
}

const ascending = (r: { start?: { height: bigint }; end?: { height: bigint } }) =>
  r.start !== undefined && r.end !== undefined && r.start.height < r.end.height;

/** One mutant per rpc, the same for every build: together they cover all 20. */
function perRpc(b: ProfileName): Mutant[] {
  return [
    grpcMutant(b, "height-plus-one", "GetLatestBlock reports the tip height + 1", {
      rpc: "GetLatestBlock",
      messages: each((m) => {
        m.height += 1n;
      }),
    }),
    grpcMutant(b, "drop-shielded-tx", "GetBlock drops a transaction with shielded data", { rpc: "GetBlock", messages: dropShieldedTx }),
    grpcMutant(b, "nullifier-byte-order", "GetBlockNullifiers sends Sapling and Orchard nullifiers reversed", {
      rpc: "GetBlockNullifiers",
      messages: each((m) =>
        m.vtx.forEach((t: { spends: { nf: Uint8Array }[]; actions: { nullifier: Uint8Array }[] }) => {
          t.spends.forEach((s) => {
            s.nf = reversed(s.nf);
          });
          t.actions.forEach((a) => {
            a.nullifier = reversed(a.nullifier);
          });
        }),
      ),
    }),
    grpcMutant(b, "ascending-end-minus-one", "an ascending GetBlockRange drops its last block", {
      rpc: "GetBlockRange",
      request: (r) => (ascending(r) ? { ...r, end: { ...r.end, height: r.end.height - 1n } } : r),
    }),
    grpcMutant(b, "duplicate-first", "GetBlockRangeNullifiers sends its first block twice", { rpc: "GetBlockRangeNullifiers", messages: duplicateFirst }),
    grpcMutant(b, "mined-height-plus-one", "GetTransaction reports a mined transaction at height + 1", {
      rpc: "GetTransaction",
      messages: each((m) => {
        if (m.height > 0n && m.height < 2n ** 63n) m.height += 1n;
      }),
    }),
    grpcMutant(b, "error-changed", "SendTransaction reports another node error code, or another gRPC status", {
      rpc: "SendTransaction",
      messages: each((m) => {
        if (m.errorCode !== 0) m.errorCode -= 1;
      }),
      status: (c) => (c === Code.Unknown ? Code.Internal : Code.Unknown),
    }),
    grpcMutant(b, "drop-last", "GetTaddressTxids drops the last transaction", { rpc: "GetTaddressTxids", messages: dropLast }),
    grpcMutant(b, "reorder", "GetTaddressTransactions sends its first two transactions swapped", { rpc: "GetTaddressTransactions", messages: swapFirstTwo }),
    grpcMutant(b, "value-plus-one", "GetTaddressBalance adds one zatoshi", {
      rpc: "GetTaddressBalance",
      messages: each((m) => {
        m.valueZat += 1n;
      }),
    }),
    grpcMutant(b, "value-plus-one", "GetTaddressBalanceStream adds one zatoshi", {
      rpc: "GetTaddressBalanceStream",
      messages: each((m) => {
        m.valueZat += 1n;
      }),
    }),
    grpcMutant(b, "ignore-exclude", "GetMempoolTx ignores the exclude list", { rpc: "GetMempoolTx", request: (r) => ({ ...r, excludeTxidSuffixes: [] }) }),
    grpcMutant(b, "drop-last", "GetMempoolStream drops a transaction", { rpc: "GetMempoolStream", messages: dropLast }),
    grpcMutant(b, "hash-byte-order", "GetTreeState sends the block hash in wire order", {
      rpc: "GetTreeState",
      messages: each((m) => {
        m.hash = reversedHex(m.hash);
      }),
    }),
    grpcMutant(b, "tree-changed", "GetLatestTreeState sends another Orchard tree", {
      rpc: "GetLatestTreeState",
      messages: each((m) => {
        m.orchardTree = m.orchardTree.length > 0 ? `${m.orchardTree.slice(0, -2)}01` : "00";
      }),
    }),
    grpcMutant(b, "root-byte-order", "GetSubtreeRoots sends rootHash reversed", {
      rpc: "GetSubtreeRoots",
      messages: each((m) => {
        m.rootHash = reversed(m.rootHash);
      }),
    }),
    grpcMutant(b, "drop-item", "GetAddressUtxos drops the last UTXO of its list", {
      rpc: "GetAddressUtxos",
      messages: each((m) => {
        m.addressUtxos = m.addressUtxos.slice(0, -1);
      }),
    }),
    grpcMutant(b, "wrong-txid", "GetAddressUtxosStream sends a wrong txid", {
      rpc: "GetAddressUtxosStream",
      messages: each((m) => {
        m.txid = flipLast(m.txid);
      }),
    }),
    grpcMutant(b, "block-height-plus-one", "GetLightdInfo reports blockHeight + 1", {
      rpc: "GetLightdInfo",
      messages: each((m) => {
        m.blockHeight += 1n;
      }),
    }),
    grpcMutant(b, "status-changed", "Ping answers another status", {
      rpc: "Ping",
      messages: () => [],
      status: () => Code.Unavailable,
    }),
  ];
}

/** Further faults, spread over the builds: range ends, byte order, status per error class, dropped data, ciphertexts, txids. */
function further(b: ProfileName): Mutant[] {
  return [
    grpcMutant(b, "descending-start-minus-one", "a descending GetBlockRange starts one block lower", {
      rpc: "GetBlockRange",
      request: (r) => (r.start && r.end && r.start.height > r.end.height ? { ...r, start: { ...r.start, height: r.start.height - 1n } } : r),
    }),
    grpcMutant(b, "prev-hash-byte-order", "GetBlockRange sends prevHash in display order", {
      rpc: "GetBlockRange",
      messages: each((m) => {
        m.prevHash = reversed(m.prevHash);
      }),
    }),
    grpcMutant(b, "ascending-start-plus-one", "an ascending GetBlockRangeNullifiers skips its first block", {
      rpc: "GetBlockRangeNullifiers",
      request: (r) => (ascending(r) ? { ...r, start: { ...r.start, height: r.start.height + 1n } } : r),
    }),
    grpcMutant(b, "hash-byte-order", "GetBlock sends the block hash in display order", {
      rpc: "GetBlock",
      messages: each((m) => {
        m.hash = reversed(m.hash);
      }),
    }),
    grpcMutant(b, "wrong-txid", "GetBlock sends a wrong txid", {
      rpc: "GetBlock",
      messages: each((m) =>
        m.vtx.forEach((t: { txid: Uint8Array }) => {
          t.txid = flipLast(t.txid);
        }),
      ),
    }),
    grpcMutant(b, "drop-action", "GetBlock drops the last Orchard action of each transaction", {
      rpc: "GetBlock",
      messages: each((m) =>
        m.vtx.forEach((t: { actions: unknown[] }) => {
          t.actions = t.actions.slice(0, -1);
        }),
      ),
    }),
    grpcMutant(b, "drop-chain-metadata", "GetBlockRange leaves chainMetadata out", {
      rpc: "GetBlockRange",
      messages: each((m) => {
        m.chainMetadata = undefined;
      }),
    }),
    grpcMutant(b, "truncated-ciphertext", "GetBlockRange truncates Sapling ciphertexts to 51 bytes", {
      rpc: "GetBlockRange",
      messages: each((m) => m.vtx.forEach(truncateSaplingCiphertext)),
    }),
    grpcMutant(b, "drop-first", "GetSubtreeRoots skips the first root", { rpc: "GetSubtreeRoots", messages: dropFirst }),
    grpcMutant(b, "not-found-as-invalid-argument", "GetTransaction answers INVALID_ARGUMENT where it answered NOT_FOUND", {
      rpc: "GetTransaction",
      status: recode(Code.NotFound, Code.InvalidArgument),
    }),
    grpcMutant(b, "invalid-argument-as-not-found", "GetBlock answers NOT_FOUND where it answered INVALID_ARGUMENT", {
      rpc: "GetBlock",
      status: recode(Code.InvalidArgument, Code.NotFound),
    }),
    grpcMutant(b, "out-of-range-as-invalid-argument", "GetBlockRange answers INVALID_ARGUMENT where it answered OUT_OF_RANGE", {
      rpc: "GetBlockRange",
      status: recode(Code.OutOfRange, Code.InvalidArgument),
    }),
    grpcMutant(b, "invalid-argument-as-out-of-range", "GetSubtreeRoots answers OUT_OF_RANGE where it answered INVALID_ARGUMENT", {
      rpc: "GetSubtreeRoots",
      status: recode(Code.InvalidArgument, Code.OutOfRange),
    }),
    grpcMutant(b, "drop-vout", "GetBlockRange leaves vout out", {
      rpc: "GetBlockRange",
      messages: each((m) =>
        m.vtx.forEach((t: { vout: unknown[] }) => {
          t.vout = [];
        }),
      ),
    }),
  ];
}

/** Internal errors where a Zaino build answered INTERNAL (its own error class). */
function zainoInternal(b: ProfileName): Mutant[] {
  return [
    grpcMutant(b, "internal-as-unknown", "GetTaddressBalance answers UNKNOWN where it answered INTERNAL", {
      rpc: "GetTaddressBalance",
      status: recode(Code.Internal, Code.Unknown),
    }),
  ];
}

/** JSON-RPC servers in turn: Zebra's (reference, zebrad) and Zaino's. */
const JSONRPC_BUILDS: ProfileName[] = ["reference", "zaino-0.10.1", "zebrad-builtin", "zaino-0.9.0"];

function jsonRpcMutants(): Mutant[] {
  return JSONRPC_METHODS.flatMap((m, i) => {
    const servers = m.zainoOnly
      ? (["zaino-0.10.1", "zaino-0.9.0"] as ProfileName[])
      : m.zebraOnly
        ? (["reference", "zebrad-builtin"] as ProfileName[])
        : JSONRPC_BUILDS;
    const b = servers[i % servers.length]!;
    return [
      jsonRpcMutant(b, "value-changed", `${m.name} answers one value changed`, {
        method: m.name,
        outcome: (o) => ("result" in o ? { result: perturbJson(o.result) } : { error: { ...o.error, code: o.error.code - 1 } }),
      }),
      jsonRpcMutant(servers[(i + 1) % servers.length]!, "item-dropped", `${m.name} answers without its last item or first key`, {
        method: m.name,
        outcome: (o) => ("result" in o ? { result: dropJsonItem(o.result) } : { error: { ...o.error, message: `${o.error.message}.` } }),
      }),
    ];
  });
}

function derivationMutants(): Mutant[] {
  return [
    ...compactMutants("truncated-sapling-ciphertext", "keeps 51 bytes of each Sapling ciphertext", truncateSaplingCiphertext),
    ...compactMutants("truncated-orchard-ciphertext", "keeps 51 bytes of each Orchard ciphertext", truncateOrchardCiphertext),
    ...compactMutants("cmu-byte-order", "sends Sapling cmu reversed", (t) =>
      t.outputs.forEach((o: { cmu: Uint8Array }) => {
        o.cmu = reversed(o.cmu);
      }),
    ),
    ...compactMutants("drop-orchard-epk", "leaves the Orchard ephemeral key out", (t) =>
      t.actions.forEach((a: { ephemeralKey: Uint8Array }) => {
        a.ephemeralKey = new Uint8Array();
      }),
    ),
    ...compactMutants("vout-value-plus-one", "adds one zatoshi to each output value", (t) =>
      t.vout.forEach((o: { value: bigint }) => {
        o.value += 1n;
      }),
    ),
    ...compactMutants("vin-index-plus-one", "shifts each prevout index by one", (t) =>
      t.vin.forEach((i: { prevoutIndex: number }) => {
        i.prevoutIndex += 1;
      }),
    ),
  ];
}

export function allMutants(): Mutant[] {
  const builds = PROFILE_NAMES.flatMap((b) => [...perRpc(b), ...further(b), ...(b.startsWith("zaino") ? zainoInternal(b) : [])]);
  return [...builds, ...jsonRpcMutants(), ...derivationMutants()];
}
