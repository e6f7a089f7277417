// The claims of the published comparison of lightwallet servers, as data: each with what
// it reads of the committed data to say, per build, what the real servers of this machine
// showed. The verdicts are computed from these findings (published-comparison.ts).

import type { BuildIdentity } from "../../core/ledger/classify.js";
import { JSONRPC_SERVED_BY } from "../jsonrpc-methods.js";
import { tableCells } from "./markdown-table.js";
import {
  goldenCases,
  goldenFile,
  goldenFolder,
  MissingEvidence,
  read,
  type Claim,
  type Committed,
  type Measured,
  type RealBuild,
} from "./published-comparison.js";

const LWD: RealBuild = { name: "lightwalletd v0.5.4 (real)", implementation: "lightwalletd", version: "v0.5.4", folder: "lightwalletd-v0.5.4" };
const ZAINO_0_10_1: RealBuild = { name: "zaino 0.10.1 (real)", implementation: "zaino", version: "0.10.1", folder: "zaino-0.10.1" };
const ZAINO_0_9_0: RealBuild = { name: "zaino 0.9.0 (real)", implementation: "zaino", version: "0.9.0", folder: "zaino-0.9.0" };
const ZAINOS = [ZAINO_0_10_1, ZAINO_0_9_0];
const ZEBRAD: RealBuild = { name: "zebrad 7.0.0 (real)", implementation: "zebrad", version: "7.0.0", folder: "zebrad-7.0.0" };
/** zebrad's own JSON-RPC answers on the regtest chain it mined (the oracle's goldens). */
const ZEBRAD_JSONRPC: RealBuild = { ...ZEBRAD, name: "zebrad 7.0.0 (real), its JSON-RPC", folder: "oracle" };
const ZTREAMER_V0_1_0: BuildIdentity = { name: "ztreamer v0.1.0", implementation: "ztreamer", version: "v0.1.0" };
const ZTREAMER_MASTER: BuildIdentity = { name: "ztreamer master", implementation: "ztreamer", version: "master" };
/** Ztreamer is in no registry: it cannot be built or run here, only read (tag v0.1.0 is commit c40f3c3). */
const ZTREAMER_SOURCE = "source only, distractedm1nd/ztreamer tag v0.1.0 (c40f3c3) and master (read at 6232ae0)";

const BENCH = "bench/README.md";
const SERVE_BENCH = "Serving benchmark";
const PLATEAU_SECTION = "the ~40 ms plateau";
/** The published "~40 ms", read as 40 ± 5 ms held inside the answer. */
const PLATEAU_MS = { low: 35, high: 45 };
/** How many JSON-RPC methods the comparison says Zaino serves. */
const PUBLISHED_JSONRPC_METHODS = 28;
const REFUSALS = new Set(["INVALID_ARGUMENT", "NOT_FOUND", "OUT_OF_RANGE"]);

const LWD_PROTO = { path: "github.com/zcash/lightwalletd", version: "v0.5.4", file: "lightwallet-protocol/walletrpc/service.proto" };
const PROTO_SOURCE = "lightwallet-protocol v0.5.0 walletrpc/service.proto, as lightwalletd v0.5.4 vendors it (lightwallet-protocol/)";

const hexOfBase64 = (s: string) => Buffer.from(s, "base64").toString("hex");
const reversedHex = (hex: string) => Buffer.from(hex, "hex").reverse().toString("hex");
const tally = (xs: readonly string[]) =>
  [...new Set(xs)]
    .sort()
    .map((x) => `${x} ${xs.filter((y) => y === x).length}`)
    .join(", ") || "nothing";

// ── Serving figures: one `zconform serve-bench --real` run, kept in bench/README.md ──────

const SERVE_NOTE =
  "zconform's figures are those of one `zconform serve-bench --real` run on the fixture chain, on a shared 2-core " +
  "machine (bench/README.md gives its load): they stand beside the published figures, taken on another chain and machine, " +
  "not against them; and Ztreamer, which the comparison set Zaino against, cannot run here";

/** A serving claim's findings: the cells of the serve-bench table's rows matching `rows`, per real build. */
function serveFigures(rows: readonly RegExp[]) {
  return (c: Committed): Measured[] => {
    const text = c.text(BENCH) ?? "";
    return [ZAINO_0_10_1, ZAINO_0_9_0, LWD].map((b) => {
      const cells = rows.flatMap((r) => tableCells(text, SERVE_BENCH, r, b.name));
      return {
        build: b.name,
        subject: b.implementation === "zaino",
        shows: cells.length > 0 ? cells.map((x) => `${x.row}: ${x.value}`).join("; ") : "not measured: not in the committed serve-bench run",
        evidence: cells.length > 0 ? [BENCH] : [],
      };
    });
  };
}

const serving = (id: string, title: string, published: string, rows: readonly RegExp[]): Claim => ({
  id,
  title,
  topic: "serving",
  published,
  notHere: [`Ztreamer v0.1.0 and master: ${ZTREAMER_SOURCE}`],
  command: "zconform serve-bench --real",
  note: SERVE_NOTE,
  measure: serveFigures(rows),
});

// ── The ~40 ms plateau: bench/README.md's timings of real zainod and its emulation ────────

interface Timing {
  row: string;
  /** As the table writes them, ms. */
  p50: string;
  held: string;
}

/** "51.7 / 52.5 (43.0)": p10 / p50 of the call and (p50 of the time held between the answer's first and last byte), ms. */
function timing(c: Committed, rowStart: string, column: string): Timing | undefined {
  const cell = tableCells(c.text(BENCH) ?? "", PLATEAU_SECTION, new RegExp(`^${rowStart}`), column)[0];
  const m = cell && /^[\d.]+ \/ ([\d.]+) \(([\d.]+)\)$/.exec(cell.value);
  return m ? { row: cell.row, p50: m[1]!, held: m[2]! } : undefined;
}

const timed = (t: Timing) => `${t.row} held ${t.held} ms between its first and last byte (p50; the call ${t.p50} ms)`;

function plateau(c: Committed): Measured[] {
  return ZAINOS.map((b) => {
    const large = timing(c, "GetTreeState \\(", b.name);
    const small = timing(c, "GetLatestBlock \\(", b.name);
    if (!large || !small) return { build: b.name, subject: true, shows: "no committed timing", evidence: [] };
    return {
      build: b.name,
      subject: true,
      shows: `${timed(large)}; ${timed(small)}`,
      holds: Number(large.held) >= PLATEAU_MS.low && Number(large.held) <= PLATEAU_MS.high,
      evidence: [BENCH],
    };
  });
}

/** The fix on a real zainod: a build of the released crates with TcpIncoming::with_nodelay(Some(true)), timed beside the release in one run. */
function nodelayFix(c: Committed): Measured[] {
  const fixed = ZAINOS.flatMap((b): Measured[] => {
    const on = timing(c, "GetTreeState \\(", `${b.name}, TCP_NODELAY on`);
    const released = timing(c, "GetTreeState \\(", `${b.name}, as released`);
    if (!on || !released) return [];
    const held = (t: Timing) => Number(t.held);
    return [
      {
        build: `${b.name}, built with TCP_NODELAY on`,
        subject: true,
        shows: `with TCP_NODELAY on, ${timed(on)}; as released, timed beside it: ${released.held} ms (p50 of the call ${released.p50} ms)`,
        holds: held(on) < PLATEAU_MS.low && held(released) >= PLATEAU_MS.low && held(released) <= PLATEAU_MS.high,
        evidence: [BENCH],
      },
    ];
  });
  const none: Measured[] = fixed.length
    ? []
    : [
        {
          build: "zainod with TCP_NODELAY set",
          subject: true,
          evidence: [],
          shows: "no such build here: zainod 0.10.1 and 0.9.0 as released leave TCP_NODELAY off (tonic's TcpIncoming without with_nodelay)",
        },
      ];
  const emulated = ZAINOS.flatMap((b): Measured[] => {
    const profile = `zaino-${b.version}`;
    const on = timing(c, "GetTreeState \\(", `${profile}, TCP_NODELAY on`);
    const off = timing(c, "GetTreeState \\(", profile);
    if (!on || !off) return [];
    return [
      {
        build: `emulated profile ${profile}`,
        subject: false,
        shows: `with TCP_NODELAY on, ${timed(on)}; off, ${off.held} ms`,
        holds: Number(on.held) < PLATEAU_MS.low,
        evidence: [BENCH],
      },
    ];
  });
  return [...fixed, ...none, ...emulated];
}

// ── Compatibility findings: the real servers' committed answers ──────────────────────────

interface CompactTx {
  vin?: unknown[];
  vout?: unknown[];
}

/** Transparent inputs and outputs over a build's GetBlock answers on one chain. */
function transparentInGetBlock(c: Committed, chain: string, b: RealBuild): { answers: number; txs: number; transparent: number } {
  const out = { answers: 0, txs: 0, transparent: 0 };
  for (const id of goldenCases(c, chain, b, "GetBlock")) {
    if (read(c, goldenFile(chain, b, id), "status.code") !== "OK") continue;
    const vtx = read(c, goldenFile(chain, b, id), "vtx") as CompactTx[];
    out.answers++;
    out.txs += vtx.length;
    out.transparent += vtx.reduce((n, tx) => n + (tx.vin?.length ?? 0) + (tx.vout?.length ?? 0), 0);
  }
  if (out.answers === 0) throw new MissingEvidence(`${goldenFolder(chain, b, "GetBlock")}: no GetBlock answer`);
  return out;
}

function getBlockTransparent(c: Committed): Measured[] {
  return [ZAINO_0_10_1, ZAINO_0_9_0, LWD].map((b) => {
    const chains = ["fixture", "regtest"].map((chain) => ({ chain, ...transparentInGetBlock(c, chain, b) }));
    const version = read(c, goldenFile("fixture", b, "GetLightdInfo/info"), "lightwalletProtocolVersion");
    const total = chains.reduce((n, x) => n + x.transparent, 0);
    return {
      build: b.name,
      subject: b.implementation === "zaino",
      shows:
        chains
          .map(
            (x) => `${x.transparent} transparent inputs and outputs in the ${x.txs} transactions of its ${x.answers} GetBlock answers on the ${x.chain} chain`,
          )
          .join("; ") + `; it reports lightwalletProtocolVersion ${JSON.stringify(version)}`,
      ...(b === ZAINO_0_10_1 ? { holds: total === 0 } : b === ZAINO_0_9_0 ? { holds: total > 0 } : {}),
      evidence: [goldenFolder("fixture", b, "GetBlock"), goldenFolder("regtest", b, "GetBlock"), goldenFile("fixture", b, "GetLightdInfo/info")],
    };
  });
}

interface SubtreeRoot {
  completingBlockHash?: string;
  completingBlockHeight?: string;
}

/** Each completing block hash a build sent on the fixture chain, against its own GetBlockRange of the whole chain. */
function completingHashOrder(c: Committed): Measured[] {
  return [LWD, ...ZAINOS].map((b) => {
    const chainFile = goldenFile("fixture", b, "GetBlockRange/whole-chain");
    const blocks = read(c, chainFile, "") as { height: string; hash: string }[];
    const hashAt = new Map(blocks.map((x) => [x.height, hexOfBase64(x.hash)]));
    const roots = new Map<string, SubtreeRoot>();
    for (const id of goldenCases(c, "fixture", b, "GetSubtreeRoots")) {
      if (read(c, goldenFile("fixture", b, id), "status.code") !== "OK") continue;
      for (const r of read(c, goldenFile("fixture", b, id), "") as SubtreeRoot[])
        if (r.completingBlockHash) roots.set(`${r.completingBlockHeight}:${r.completingBlockHash}`, r);
    }
    if (roots.size === 0) throw new MissingEvidence(`${goldenFolder("fixture", b, "GetSubtreeRoots")}: no completing block hash`);
    const order = [...roots.values()].map((r) => {
      const sent = hexOfBase64(r.completingBlockHash!);
      const wire = hashAt.get(r.completingBlockHeight!);
      return wire === undefined ? "a height its chain lacks" : sent === reversedHex(wire) ? "display order" : sent === wire ? "wire order" : "neither order";
    });
    return {
      build: b.name,
      subject: false,
      shows: `${tally(order)} among the ${roots.size} distinct completing block hashes of its GetSubtreeRoots answers on the fixture chain (the block's hash as its GetBlockRange sent it, reversed: display order)`,
      holds: order.every((o) => o === "display order"),
      evidence: [goldenFolder("fixture", b, "GetSubtreeRoots"), chainFile],
    };
  });
}

/** The status of a build's golden of a case, or "no golden". */
function statusOf(c: Committed, chain: string, b: RealBuild, caseId: string): string {
  const file = goldenFile(chain, b, caseId);
  return c.text(file) === undefined ? "no golden" : String(read(c, file, "status.code"));
}

function internalStatus(c: Committed): Measured[] {
  return ZAINOS.map((b) => {
    const grpc = c.list(goldenFolder("regtest", b)).filter((m) => /^[A-Z]/.test(m));
    const ids = grpc.flatMap((m) => goldenCases(c, "regtest", b, m));
    const internal = ids.filter((id) => statusOf(c, "regtest", b, id) === "INTERNAL");
    if (ids.length === 0) throw new MissingEvidence(`${goldenFolder("regtest", b)}: no gRPC golden`);
    const zebrad = internal.map((id) => statusOf(c, "regtest", ZEBRAD, id));
    const example = internal.find((id) => REFUSALS.has(statusOf(c, "regtest", ZEBRAD, id)));
    return {
      build: b.name,
      subject: true,
      shows:
        `INTERNAL to ${internal.length} of its ${ids.length} gRPC answers on the regtest chain ` +
        `(${[...new Set(internal.map((id) => id.split("/")[0]))].join(", ")}); to the same requests zebrad 7.0.0's own server answered ` +
        `${tally(zebrad)}, lightwalletd v0.5.4 ${tally(internal.map((id) => statusOf(c, "regtest", LWD, id)))}`,
      holds: zebrad.some((s) => REFUSALS.has(s)),
      evidence: [
        goldenFolder("regtest", b),
        goldenFolder("regtest", ZEBRAD),
        goldenFolder("regtest", LWD),
        ...(example ? [goldenFile("regtest", b, example), goldenFile("regtest", ZEBRAD, example)] : []),
      ],
    };
  });
}

const BALANCE_CHAINS = ["fixture", "regtest"];

function duplicateAddress(c: Committed): Measured[] {
  return [...ZAINOS, LWD].map((b) => {
    const chains = BALANCE_CHAINS.map((chain) => {
      const twice = BigInt(read(c, goldenFile(chain, b, "GetTaddressBalanceStream/duplicate"), "valueZat") as string);
      const once = BigInt(read(c, goldenFile(chain, b, "GetTaddressBalanceStream/with-utxos"), "valueZat") as string);
      return { chain, twice, once, factor: once > 0n && twice % once === 0n ? Number(twice / once) : undefined };
    });
    return {
      build: b.name,
      subject: b.implementation === "zaino",
      shows: chains
        .map((x) => `${x.chain} chain: the address streamed twice ${x.twice} zatoshi, once ${x.once}` + (x.factor !== undefined ? ` (×${x.factor})` : ""))
        .join("; "),
      ...(b.implementation === "zaino" ? { holds: chains.every((x) => x.factor === 2) } : {}),
      evidence: BALANCE_CHAINS.flatMap((chain) => ["duplicate", "with-utxos"].map((n) => goldenFile(chain, b, `GetTaddressBalanceStream/${n}`))),
    };
  });
}

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function rawTransactionVerbosity0(c: Committed): Measured[] {
  const cases = ["getrawtransaction/verbose-0", "getrawtransaction/transparent-verbose-0"];
  const zaino = ZAINOS.map((b): Measured => {
    const types = cases.map((id) => jsonType(read(c, goldenFile("fixture", b, id), "result")));
    return {
      build: b.name,
      subject: true,
      shows: `verbosity 0 answered ${types.map((t, i) => `${cases[i]}: ${t === "object" ? "an object" : `a ${t}`}`).join(", ")} (fixture chain)`,
      holds: types.every((t) => t === "object"),
      evidence: cases.map((id) => goldenFile("fixture", b, id)),
    };
  });
  const file = goldenFile("regtest", ZEBRAD_JSONRPC, cases[1]!);
  const zebra = read(c, file, "result");
  return [
    ...zaino,
    {
      build: ZEBRAD_JSONRPC.name,
      subject: false,
      evidence: [file],
      holds: typeof zebra === "string",
      shows: `verbosity 0 answered ${typeof zebra === "string" ? `the hex string (${zebra.length} digits)` : `a ${jsonType(zebra)}`} to ${cases[1]} (regtest chain)`,
    },
  ];
}

/** The JSON-RPC methods a build answered other than -32601 "Method not found", of those the corpus asks. */
function jsonRpcMethods(c: Committed): Measured[] {
  return ZAINOS.map((b) => {
    const asked = c.list(goldenFolder("fixture", b)).filter((m) => /^[a-z]/.test(m));
    const served = asked.filter((m) =>
      goldenCases(c, "fixture", b, m).some((id) => (read(c, goldenFile("fixture", b, id), "") as { error?: { code?: number } }).error?.code !== -32601),
    );
    if (asked.length === 0) throw new MissingEvidence(`${goldenFolder("fixture", b)}: no JSON-RPC golden`);
    const trait = JSONRPC_SERVED_BY.find((s) => s.implementation === b.implementation && s.version === b.version);
    const missing = asked.filter((m) => !served.includes(m));
    return {
      build: b.name,
      subject: b === ZAINO_0_10_1,
      shows:
        `answered ${served.length} of the ${asked.length} methods the corpus asks (-32601 "Method not found": ${missing.join(", ") || "none"})` +
        (trait ? `; its jsonrpsee trait (${trait.source.crate} ${trait.source.version} ${trait.source.symbol}) has ${trait.methods.length} methods` : ""),
      ...(b === ZAINO_0_10_1 ? { holds: served.length === PUBLISHED_JSONRPC_METHODS && trait?.methods.length === PUBLISHED_JSONRPC_METHODS } : {}),
      evidence: [goldenFolder("fixture", b), "src/zcash/jsonrpc-methods.ts"],
    };
  });
}

export const CLAIMS: readonly Claim[] = [
  serving("index-start", "Index build time and first answer", "how long each indexer takes to build its index and to give its first answer", [/^start: /]),
  serving("range-1000", "GetBlockRange over 1,000 blocks", "GetBlockRange blocks per second over a 1,000-block range", [
    /^GetBlockRange 1,000 blocks.*, 1 client, blocks\/s$/,
  ]),
  serving("wallet-download", "Wallet download", "blocks per second of a whole wallet download (GetBlockRange from Sapling activation to the tip)", [
    /^wallet download .*, 1 client, blocks\/s$/,
  ]),
  serving("clients-128", "128 concurrent clients", "the serving rate with 128 concurrent clients", [/, 128 clients/]),
  serving("single-block", "Single blocks", "single-block GetBlock requests per second", [/^GetBlock single blocks, 1 client /]),
  {
    id: "plateau-40ms",
    title: "The ~40 ms latency plateau",
    topic: "latency",
    published: "Zaino's unary answers sit on a ~40 ms latency plateau, because it does not set TCP_NODELAY on its sockets",
    ledger: [{ id: "zaino-small-answers-40ms", covers: ZAINOS, spares: [LWD] }],
    command: "zconform latency -c <config naming the real zainod> --rpc GetTreeState --rpc GetLatestBlock",
    note: "a row of bench/README.md's table is an rpc and its answer's size in message bytes; a 37-byte answer leaves in one write and is not held",
    measure: plateau,
  },
  {
    id: "nodelay-fix",
    title: "The one-line TCP_NODELAY fix",
    topic: "latency",
    published: "setting TCP_NODELAY on Zaino's accepted sockets, a one-line change, removes the plateau",
    command: "zconform latency -c <config naming a zainod built with TcpIncoming::with_nodelay(Some(true))> --rpc GetTreeState",
    note:
      "the fixed build is zainod 0.10.1 from its released crates with that one line added (zaino-serve 0.9.0 src/server/grpc.rs, GrpcServer::spawn_with_routes), " +
      "built and timed by hand as bench/README.md says; the emulated profiles reproduce the plateau by its cause (TCP_NODELAY off, trailers in a second write), " +
      "so their figure with it on shows the mechanism, not the real fix",
    measure: nodelayFix,
  },
  {
    id: "getblock-transparent",
    title: "GetBlock's transparent data by version",
    topic: "compatibility",
    published: "GetBlock's transparent data changed with the version: Zaino 0.9.0 sends transparent inputs and outputs, 0.10.1 leaves them out",
    protocol: {
      text: "The returned `CompactBlock` includes transaction data for all value pools, including transparent inputs (`vin`) and outputs (`vout`).",
      source: `${PROTO_SOURCE}, rpc GetBlock`,
      module: LWD_PROTO,
    },
    ledger: [{ id: "zaino-getblock-shielded-only", covers: [ZAINO_0_10_1], spares: [ZAINO_0_9_0, LWD] }],
    note: "0.10.1's GetBlock is shielded-only while it reports protocol v0.5.0, whose text quoted here promises every pool: the change departs from the protocol it reports",
    measure: getBlockTransparent,
  },
  {
    id: "completing-hash-order",
    title: "completingBlockHash byte order",
    topic: "compatibility",
    published: "Ztreamer sends SubtreeRoot.completingBlockHash in wire (little-endian) order, where the other servers send display order",
    notHere: [`Ztreamer v0.1.0 and master (${ZTREAMER_SOURCE}): crates/service/src/service.rs subtree_stream sends the hash as its index stores it`],
    protocol: { text: "The hash of the block that completed this subtree.", source: `${PROTO_SOURCE}, SubtreeRoot.completingBlockHash`, module: LWD_PROTO },
    ledger: [{ id: "subtree-completing-hash-wire-order", covers: [ZTREAMER_V0_1_0, ZTREAMER_MASTER], spares: [LWD, ...ZAINOS] }],
    note: "the protocol text names no byte order; the regtest chain completes no subtree, so only the fixture chain shows one",
    measure: completingHashOrder,
  },
  {
    id: "internal-for-invalid-input",
    title: "INTERNAL for invalid input",
    topic: "compatibility",
    published:
      "Zaino answers INTERNAL to invalid input (unknown transactions, bad addresses, rejected transactions) where the others answer INVALID_ARGUMENT, NOT_FOUND or OUT_OF_RANGE",
    ledger: [
      { id: "zaino-internal-status", covers: ZAINOS, spares: [LWD, ZEBRAD] },
      { id: "zaino-send-rejection-internal", covers: ZAINOS, spares: [LWD, ZEBRAD] },
    ],
    measure: internalStatus,
  },
  {
    id: "duplicate-address-twice",
    title: "A duplicate address counted twice",
    topic: "compatibility",
    published: "GetTaddressBalanceStream counts a duplicated address twice, in every build the comparison measured but Ztreamer master",
    notHere: [`Ztreamer v0.1.0 (one node query per streamed message) and master (deduplicates): ${ZTREAMER_SOURCE}`],
    ledger: [{ id: "balance-stream-duplicate-counted-twice", covers: [...ZAINOS, ZTREAMER_V0_1_0], spares: [ZTREAMER_MASTER, LWD] }],
    measure: duplicateAddress,
  },
  {
    id: "getrawtransaction-verbosity-0",
    title: "getrawtransaction verbosity 0",
    topic: "compatibility",
    published: "Zaino's getrawtransaction with verbosity 0 answers the verbose object instead of the hex string",
    ledger: [{ id: "zaino-getrawtransaction-verbose-object", covers: ZAINOS, spares: [ZEBRAD] }],
    measure: rawTransactionVerbosity0,
  },
  {
    id: "jsonrpc-28-methods",
    title: "The 28 JSON-RPC methods Zaino serves",
    topic: "compatibility",
    published: `Zaino serves ${PUBLISHED_JSONRPC_METHODS} JSON-RPC methods, and the comparison checked each`,
    ledger: [
      { id: "zaino-getaddressdeltas-asks-zebra", covers: [ZAINO_0_10_1], spares: [ZAINO_0_9_0] },
      { id: "zaino-no-getblockhash", covers: ZAINOS },
    ],
    measure: jsonRpcMethods,
  },
];
