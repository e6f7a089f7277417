// What the oracle cannot vouch for is named, and the corpus honours it: every
// oracle-anchored case declares at least its rpc's UNDERIVABLE paths volatile, compares
// mempool streams unordered, never anchors an answer the oracle cannot derive.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "@jest/globals";
import { formatPath, parsePath } from "../../core/canon/paths.js";
import type { Case } from "../../core/corpus/case.js";
import { loadCorpus } from "../../core/corpus/load.js";
import { CompactTxStreamer, type RawTransaction } from "../gen/walletrpc/service_pb.js";
import { chainAnchors } from "../fixture/chain/anchors.js";
import { syntheticChain } from "../fixture/chain/synthetic.js";
import { planCase } from "../../core/run/plan.js";
import { mayBeTransaction } from "./transactions.js";
import { RPC_NAMES, UNDERIVABLE, UNDERIVABLE_ANSWERS, UNORDERED_RPCS, isRpcName } from "./underivable.js";
import { lightwalletProtocol } from "../protocol.js";

describe("the UNDERIVABLE table", () => {
  test("names every rpc of the service, and nothing else", () => {
    expect(Object.keys(UNDERIVABLE).sort()).toEqual(CompactTxStreamer.methods.map((m) => m.name).sort());
    expect([...RPC_NAMES].sort()).toEqual(Object.keys(UNDERIVABLE).sort());
  });

  test("every path parses and names a field of the rpc's response message", () => {
    for (const m of CompactTxStreamer.methods) {
      for (const path of UNDERIVABLE[m.name as keyof typeof UNDERIVABLE]) {
        const segments = parsePath(path);
        expect(formatPath(segments)).toBe(path);
        const first = segments[0]!;
        expect(first.kind === "field" && m.output.fields.some((f) => f.jsonName === first.name)).toBe(true);
      }
    }
  });

  test("GetLightdInfo: the server's own identity; Ping: all of it", () => {
    expect([...UNDERIVABLE.GetLightdInfo].sort()).toEqual(["branch", "buildDate", "buildUser", "donationAddress", "gitCommit", "vendor", "version"]);
    expect(UNDERIVABLE.Ping).toEqual(["entry", "exit"]);
    expect(Object.keys(UNDERIVABLE_ANSWERS).sort()).toEqual(["Ping", "SendTransaction"]);
  });
});

// ── the corpus ─────────────────────────────────────────────────────────────────────

const CASES = fileURLToPath(new URL("../../../cases", import.meta.url));
const haveCorpus = existsSync(`${CASES}/grpc`) && readdirSync(`${CASES}/grpc`).some((f) => /\.ya?ml$/.test(f));
const corpusTest = haveCorpus ? test : test.skip;
const SKIPPED = haveCorpus ? "" : " (skipped: cases/grpc holds no case file yet)";

/** A declared path covers a field when it names it, for every message (`x` or `[*].x`). */
function covers(declared: readonly string[], path: string): boolean {
  const norm = (p: string) => {
    const s = parsePath(p);
    return formatPath(s[0]?.kind === "any" ? s.slice(1) : s);
  };
  return declared.some((d) => norm(d) === norm(path));
}

function oracleAnchored(): Case[] {
  return loadCorpus(CASES, lightwalletProtocol).filter((c) => c.transport === "grpc" && c.expect.kind === "oracle");
}

describe(`the corpus${SKIPPED}`, () => {
  corpusTest("every oracle-anchored case declares its rpc's UNDERIVABLE paths volatile", () => {
    const missing = oracleAnchored().flatMap((c) => {
      if (!isRpcName(c.method)) return [];
      const absent = UNDERIVABLE[c.method].filter((p) => !covers(c.volatile, p));
      return absent.length > 0 ? [`${c.source.file}:${c.source.line} ${c.id}: not volatile: ${absent.join(", ")}`] : [];
    });
    expect(missing).toEqual([]);
  });

  corpusTest("no case anchors Ping to the oracle; mempool streams are compared unordered", () => {
    const wrong = oracleAnchored().flatMap((c) => {
      if (c.method === "Ping") return [`${c.source.file}:${c.source.line} ${c.id}: ${UNDERIVABLE_ANSWERS.Ping}`];
      if (isRpcName(c.method) && UNORDERED_RPCS.has(c.method) && !c.unordered) return [`${c.source.file}:${c.source.line} ${c.id}: must be unordered`];
      return [];
    });
    expect(wrong).toEqual([]);
  });

  corpusTest("no oracle-anchored SendTransaction sends a transaction (the oracle never broadcasts)", () => {
    const model = syntheticChain();
    const anchors = chainAnchors(model);
    const wrong = oracleAnchored()
      .filter((c) => c.method === "SendTransaction")
      .flatMap((c) => {
        const pc = planCase(c, anchors, "fixture", lightwalletProtocol);
        const data = pc.request instanceof Uint8Array || pc.request === undefined ? undefined : (pc.request as RawTransaction).data;
        return data !== undefined && mayBeTransaction(data) ? [`${c.source.file}:${c.source.line} ${c.id}: ${UNDERIVABLE_ANSWERS.SendTransaction}`] : [];
      });
    expect(wrong).toEqual([]);
  });
});
