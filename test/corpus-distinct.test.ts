// Every case of the corpus must probe something the others do not: no two cases of one
// method send the same request bytes, and no two that succeed on the fixture chain expect
// the same compared answer there unless one declares why (`sameAnswerAs`: an unknown
// field must be skipped, a limit must not matter). Error cases differ by their requests:
// the status they expect is all they compare. Answers are the reference server's, through
// the same targets and canonical forms a run uses (volatile paths removed).

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { toBinary, type Message } from "@bufbuild/protobuf";
import { canonGrpc, grpcCanonOptions } from "../src/core/canon/grpc.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import { loadChainProfile } from "../src/core/corpus/chain-profile.js";
import { planCases, type PlannedCase } from "../src/core/run/plan.js";
import { caseCallOptions } from "../src/core/run/runner.js";
import { grpcTarget, type GrpcTarget } from "../src/core/targets/grpc.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const corpus = loadCorpus("cases", lightwalletProtocol);
// Cases declared for other chains only are not planned on the fixture: they have no answer here to compare.
const planned = planCases(
  corpus.filter((c) => c.transport === "grpc"),
  loadChainProfile("cases", "fixture").anchors,
  "fixture",
  lightwalletProtocol,
).filter((p) => !p.skipped);

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** The bytes a case puts on the wire: each request message, in order (and where it cancels, and the deadline it sends). */
function requestBytes(pc: PlannedCase): string {
  const one = (m: Message | Uint8Array) => hex(m instanceof Uint8Array ? m : toBinary(pc.rpc!.input, m));
  const r = pc.request as Message | Uint8Array | (Message | Uint8Array)[];
  const bytes = Array.isArray(r) ? `[${r.map(one).join(",")}]` : one(r);
  const cancelled = pc.case.cancelAfter === undefined ? "" : ` cancelled after ${pc.case.cancelAfter}`;
  return `${bytes}${cancelled}${pc.case.deadlineMs === undefined ? "" : ` grpc-timeout ${pc.case.deadlineMs}m`}`;
}

/** Ids grouped by a key, per method; only groups of two or more. */
function sameKey(cases: readonly PlannedCase[], key: (pc: PlannedCase) => string): string[][] {
  const groups = new Map<string, string[]>();
  for (const pc of cases) {
    const k = `${pc.case.method}\0${key(pc)}`;
    groups.set(k, [...(groups.get(k) ?? []), pc.case.id]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

describe("no two cases of one method send the same request", () => {
  test("request bytes", () => {
    expect(sameKey(planned, requestBytes)).toEqual([]);
  });
});

describe("no two cases of one method expect the same answer on the fixture chain without saying why", () => {
  let net: FixtureNetwork | undefined;
  let target: GrpcTarget | undefined;
  const answers = new Map<string, string>();
  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference"] });
    target = grpcTarget({ url: net.grpc.reference! });
    for (const pc of planned) {
      if (lightwalletProtocol.sendsTransaction(pc)) continue;
      const o = await target.call(pc.rpc!, pc.request as Message, { deadlineMs: 15_000, ...caseCallOptions(pc.case) });
      const canon = canonGrpc(o, pc.rpc!.output, grpcCanonOptions(pc.rpc!, pc.case));
      if (canon.status.code !== 0 || pc.case.expect.kind === "error") continue;
      answers.set(pc.case.id, canon.messages.map((m) => hex(m.compared)).join("\n"));
    }
  }, 300_000);
  afterAll(async () => {
    await target?.close();
    await net?.close();
  });

  test("answer bytes, each shared answer declared", () => {
    const undeclared: string[][] = [];
    for (const group of sameKey(
      planned.filter((pc) => answers.has(pc.case.id)),
      (pc) => answers.get(pc.case.id)!,
    )) {
      // A group is declared when every member but one names another member of the group.
      const named = group.filter((id) => {
        const other = corpus.find((c) => c.id === id)!.sameAnswerAs?.case;
        return other !== undefined && group.includes(other);
      });
      if (named.length < group.length - 1) undeclared.push(group);
    }
    expect(undeclared).toEqual([]);
  });

  test("a declared shared answer is still shared", () => {
    const broken = corpus
      .filter((c) => c.sameAnswerAs && answers.has(c.id) && answers.get(c.id) !== answers.get(c.sameAnswerAs.case))
      .map((c) => `${c.id} ≠ ${c.sameAnswerAs!.case}`);
    expect(broken).toEqual([]);
  });
});
