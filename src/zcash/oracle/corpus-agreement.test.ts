// Every oracle-anchored gRPC case of the real corpus, planned on the fixture chain: the
// reference server's answer equals the oracle's under the case's own declarations
// (volatile paths, unordered). The corpus is what the runner will ask; this is the
// deriver meeting it before any build does.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadCorpus } from "../../core/corpus/load.js";
import { compareObservations } from "../../core/diff/compare.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { planCase } from "../../core/run/plan.js";
import { grpcTarget, type GrpcRequest, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { deriveFromOracle } from "./derive.js";
import { brief } from "./oracle.test-helper.js";
import { UNDERIVABLE_ANSWERS } from "./underivable.js";
import { lightwalletProtocol } from "../protocol.js";

const CASES = fileURLToPath(new URL("../../../cases", import.meta.url));
const haveCorpus = existsSync(`${CASES}/grpc`) && readdirSync(`${CASES}/grpc`).some((f) => /\.ya?ml$/.test(f));
const corpusTest = haveCorpus ? test : test.skip;

let net: FixtureNetwork | undefined;
let oracle: JsonRpcTarget | undefined;
let server: GrpcTarget | undefined;

beforeAll(async () => {
  if (!haveCorpus) return;
  net = await startFixtureNetwork({ profiles: ["reference"], mempoolStreamHoldMs: 5 });
  oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
  server = grpcTarget({ url: net.grpc.reference! });
});

afterAll(async () => {
  await server?.close();
  await oracle?.close();
  await net?.close();
});

describe(`the corpus on the fixture chain${haveCorpus ? "" : " (skipped: cases/grpc holds no case file yet)"}`, () => {
  corpusTest("every oracle-anchored gRPC case: the reference server answers what the oracle derives", async () => {
    const derive = deriveFromOracle(oracle!);
    const cases = loadCorpus(CASES, lightwalletProtocol).filter((c) => c.transport === "grpc" && c.expect.kind === "oracle");
    const problems: unknown[] = [];
    let compared = 0;
    for (const c of cases) {
      const pc = planCase(c, net!.anchors, "fixture", lightwalletProtocol);
      if (pc.skipped) continue;
      const mine = await derive(pc);
      if (mine === undefined) {
        problems.push({ case: c.id, problem: `the oracle derives nothing (${UNDERIVABLE_ANSWERS[c.method as keyof typeof UNDERIVABLE_ANSWERS] ?? "?"})` });
        continue;
      }
      const theirs = await server!.call(pc.rpc!, pc.request as GrpcRequest);
      const cmp = compareObservations(mine, theirs, { left: "oracle", right: "reference", method: pc.rpc!, volatile: c.volatile, unordered: c.unordered });
      if (cmp.divergences.length > 0) problems.push({ case: c.id, at: `${c.source.file}:${c.source.line}`, divergences: brief(cmp.divergences) });
      compared++;
    }
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(0);
  });
});
