import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createServer, type Server, type Socket } from "node:net";
import { create, fromBinary } from "@bufbuild/protobuf";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer } from "./gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "./fixture/network.js";
import { DEFAULT_LIMITS, type Build } from "../core/targets/config.js";
import { grpcTarget, type GrpcTarget } from "../core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../core/targets/jsonrpc.js";
import type { Contact } from "../core/results/events.js";
import { gatherStartupFacts, preflightProblems } from "./start-facts.js";

const contact = (name: string, chainName?: string, reached = true): Contact => ({
  name,
  transport: "grpc",
  reached,
  ms: 1,
  ...(chainName ? { chainName } : { detail: "connect ECONNREFUSED 127.0.0.1:1" }),
});

describe("preflight problems", () => {
  test("none when every build and the oracle serve the profile's chain", () => {
    expect(preflightProblems([contact("a", "main"), contact("b", "main")], { ...contact("oracle", "main"), transport: "jsonrpc" }, "mainnet")).toEqual([]);
  });

  test("no build reached is no reason to stop: its cases could not be checked", () => {
    expect(preflightProblems([contact("a", undefined, false)], undefined, "testnet")).toEqual([]);
  });

  test("a regtest server against a mainnet profile, the oracle included", () => {
    const problems = preflightProblems([contact("a", "regtest")], { ...contact("oracle", "regtest"), transport: "jsonrpc" }, "mainnet");
    expect(problems).toEqual([
      'build a serves chain "regtest", but the chain profile is mainnet ("main")',
      'the oracle serves chain "regtest", but the chain profile is mainnet ("main")',
    ]);
  });

  test("builds that disagree with each other", () => {
    const problems = preflightProblems([contact("a", "test"), contact("b", "main")], undefined, undefined);
    expect(problems).toEqual(['the builds serve different chains: a says "test", b says "main"']);
  });

  test('a profile naming its chain: zebrad\'s regtest says "test", and "regtest" is then the wrong name', () => {
    const oracle = { ...contact("oracle", "test"), transport: "jsonrpc" as const };
    expect(preflightProblems([contact("a", "test")], oracle, "regtest", "test")).toEqual([]);
    expect(preflightProblems([contact("a", "regtest")], oracle, "regtest", "test")).toEqual([
      'build a serves chain "regtest", but the chain profile is regtest ("test")',
    ]);
  });

  test("one build down among reachable ones is not a reason to stop", () => {
    expect(preflightProblems([contact("a", "test"), contact("b", undefined, false)], undefined, "testnet")).toEqual([]);
  });
});

describe("startup facts from live servers", () => {
  let net: FixtureNetwork;
  let silent: Server;
  const held: Socket[] = [];
  const targets: (GrpcTarget | JsonRpcTarget)[] = [];
  let silentUrl = "";

  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference", "zaino-0.9.0"] });
    // Accepts connections and never says a word.
    silent = createServer((s) => void held.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const addr = silent.address();
    silentUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
    held.forEach((s) => s.destroy());
    await new Promise((r) => silent.close(r));
    await net.close();
  });

  function connect(builds: Build[]) {
    const grpc = new Map(builds.filter((b) => b.grpc).map((b) => [b.name, grpcTarget(b.grpc!)]));
    const oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
    targets.push(...grpc.values(), oracle);
    return { grpc, jsonrpc: new Map<string, JsonRpcTarget>(), oracle: { target: oracle, limits: { deadlineMs: 10_000 } } };
  }

  test("chain names, protocol versions and the oracle's tip, as the servers report them", async () => {
    const builds = net.builds();
    const facts = await gatherStartupFacts({ builds, ...connect(builds), network: "regtest", needTip: true });
    expect(facts.preflight.problems).toEqual([]);
    expect(facts.preflight.builds.map((c) => [c.name, c.reached, c.chainName])).toEqual([
      ["reference", true, "regtest"],
      ["zaino-0.9.0", true, "regtest"],
    ]);
    expect(facts.preflight.oracle).toMatchObject({ name: "oracle", transport: "jsonrpc", reached: true, chainName: "regtest" });
    expect(facts.protocolVersions.get("zaino-0.9.0")).toBe("v0.5.0");
    // The tip the oracle gave equals what the reference build's GetLatestBlock says.
    const reference = grpcTarget(net.builds()[0]!.grpc!);
    targets.push(reference);
    const latest = await reference.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema));
    const id = fromBinary(BlockIDSchema, latest.messages[0]!);
    expect(facts.tip).toEqual({ height: Number(id.height), hash: Buffer.from(id.hash).reverse().toString("hex") });
  });

  test("a mempool transaction, when asked for: the least txid in the oracle's mempool", async () => {
    const builds = net.builds();
    const waiting = net.model.mempool.map((t) => Buffer.from(t.txid).reverse().toString("hex")).sort();
    expect(waiting.length).toBeGreaterThan(1);
    const asked = await gatherStartupFacts({ builds, ...connect(builds), network: "regtest", needMempoolTxid: true });
    expect(asked.mempoolTxid).toBe(waiting[0]);
    const unasked = await gatherStartupFacts({ builds, ...connect(builds), network: "regtest" });
    expect(unasked.mempoolTxid).toBeUndefined();
  });

  test("the startup call keeps the build's own message limit", async () => {
    const builds = net.builds({ maxMessageBytes: 16 });
    const facts = await gatherStartupFacts({ builds, ...connect(builds), network: "regtest" });
    expect(facts.preflight.builds[0]).toMatchObject({ reached: true });
    expect(facts.preflight.builds[0]!.detail).toMatch(/16/);
    expect(facts.preflight.builds[0]!.chainName).toBeUndefined();
  });

  test("the startup call ends at the build's own deadline", async () => {
    const build: Build = {
      ...DEFAULT_LIMITS,
      deadlineMs: 300,
      name: "silent",
      implementation: "other",
      emulated: false,
      grpc: { url: silentUrl },
      source: { file: "t", line: 1 },
    };
    const t0 = performance.now();
    const facts = await gatherStartupFacts({ builds: [build], ...connect([build]), network: "regtest" });
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(facts.preflight.builds[0]).toMatchObject({ name: "silent", reached: false });
    expect(facts.preflight.builds[0]!.detail).toMatch(/client deadline/);
  });
});
