import { describe, expect, test } from "@jest/globals";
import { toJson, type Message } from "@bufbuild/protobuf";
import { loadCorpus, parseCaseFile } from "../corpus/load.js";
import { formatProblem, ProblemsError } from "../io/located-yaml.js";
import { planCases } from "./plan.js";
import { loadChainProfile, unlearntAnchors, withDynamic, type ChainProfile } from "../corpus/chain-profile.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

function problems(file: string, text: string, transport: "grpc" | "jsonrpc"): string[] {
  try {
    planCases(parseCaseFile(text, file, transport, lightwalletProtocol), { tip: 10 }, "fixture", lightwalletProtocol);
  } catch (e) {
    if (e instanceof ProblemsError) return e.problems.map(formatProblem);
    throw e;
  }
  return [];
}

describe("planning checks volatile declarations", () => {
  // A typo here used to pass planning and end the run with a stack trace once the
  // first answer was judged, after calls had been made.
  test("a field the rpc's answer does not have is a corpus problem at the case", () => {
    expect(
      problems("cases/grpc/GetLatestBlock.yaml", "method: GetLatestBlock\ncases:\n  - id: tip\n    request: {}\n    volatile: [hieght]\n", "grpc"),
    ).toEqual([
      'cases/grpc/GetLatestBlock.yaml:3: GetLatestBlock/tip.volatile: volatile path "hieght": cash.z.wallet.sdk.rpc.BlockID has no field "hieght" (JSON names are used)',
    ]);
  });

  test("the status code can never be volatile", () => {
    expect(
      problems("cases/grpc/GetLatestBlock.yaml", "method: GetLatestBlock\ncases:\n  - id: tip\n    request: {}\n    volatile: [status.code]\n", "grpc"),
    ).toEqual([expect.stringContaining('GetLatestBlock/tip.volatile: volatile path "status.code"')]);
  });

  test("a malformed JSON-RPC path is reported the same way; good paths plan", () => {
    expect(problems("cases/jsonrpc/getblock.yaml", 'method: getblock\ncases:\n  - id: a\n    request: ["1"]\n    volatile: ["result["]\n', "jsonrpc")).toEqual([
      expect.stringMatching(/^cases\/jsonrpc\/getblock\.yaml:3: getblock\/a\.volatile: /),
    ]);
    expect(
      problems("cases/jsonrpc/getblock.yaml", 'method: getblock\ncases:\n  - id: a\n    request: ["1"]\n    volatile: [result.confirmations]\n', "jsonrpc"),
    ).toEqual([]);
    expect(
      problems(
        "cases/grpc/GetBlockRange.yaml",
        'method: GetBlockRange\ncases:\n  - id: a\n    request: { start: { height: 1 }, end: { height: 2 } }\n    volatile: ["[*].hash", status.message]\n',
        "grpc",
      ),
    ).toEqual([]);
  });
});

describe("dynamic anchors the run could not learn", () => {
  const profile: ChainProfile = { name: "live", network: "testnet", anchors: {}, dynamic: { tip: "tip_height", txid_mempool: "mempool_txid" } };
  const cases = parseCaseFile(
    'method: GetTransaction\ncases:\n  - id: m\n    request: { hash: "${txid_mempool|le}" }\n  - id: t\n    request: { block: { height: "${tip}" } }\n',
    "cases/grpc/GetTransaction.yaml",
    "grpc",
    lightwalletProtocol,
  );

  test("an empty mempool skips the cases that need one, saying why; the tip still plans", () => {
    const live = { tip: { height: 5, hash: "ab".repeat(32) } };
    const [m, t] = planCases(cases, withDynamic(profile, live), "live", lightwalletProtocol, unlearntAnchors(profile, live));
    expect(m!.skipped).toBe(`anchor "txid_mempool": the oracle's mempool held no transaction when the run started (or there is no oracle)`);
    expect(t!.skipped).toBeUndefined();
  });

  test("a learnt mempool transaction goes into the request in the byte order the case asks for", () => {
    const txid = "01".repeat(31) + "ff";
    const live = { tip: { height: 5, hash: "ab".repeat(32) }, mempoolTxid: txid };
    expect(unlearntAnchors(profile, live).size).toBe(0);
    const [m] = planCases(cases, withDynamic(profile, live), "live", lightwalletProtocol, unlearntAnchors(profile, live));
    expect(Buffer.from((m!.request as unknown as { hash: Uint8Array }).hash).toString("hex")).toBe("ff" + "01".repeat(31));
  });
});

// Requests' JSON (reports, reproduce commands) is written without toJson's slow base64, yet must read the same.
describe("planned requests' JSON", () => {
  test("every gRPC request the shipped corpus plans on the fixture chain reads as toJson has it", () => {
    const chain = loadChainProfile("cases", "fixture");
    const live = { tip: { height: 120, hash: "00".repeat(32) } };
    const planned = planCases(
      loadCorpus("cases", lightwalletProtocol),
      withDynamic(chain, live),
      chain.name,
      lightwalletProtocol,
      unlearntAnchors(chain, live),
    );
    let compared = 0;
    for (const pc of planned) {
      if (!pc.rpc || pc.request === undefined) continue;
      const requests = (Array.isArray(pc.request) ? pc.request : [pc.request]) as (Message | Uint8Array)[];
      const json = Array.isArray(pc.request) ? (pc.requestJson as unknown[]) : [pc.requestJson];
      requests.forEach((r, i) => {
        if (r instanceof Uint8Array) return; // raw wire bytes: shown as hex, and decoded when they decode
        expect(json[i]).toEqual(toJson(pc.rpc!.input, r));
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(100);
  });
});
