// Runs scenarios on a network whose node a chain mover moves: the builds' targets are
// opened once for all scenarios, each scenario runs through the engine with the node's
// JSON-RPC as the oracle, and every divergence is classified by the ledger as a run's are.
// The fixture (fixture.ts) and a real regtest zebrad (real.ts) differ only in the network.

import type { ChainProfile } from "../../core/corpus/chain-profile.js";
import { classify } from "../../core/ledger/classify.js";
import { ledgerOnChain, type Quirk } from "../../core/ledger/quirk.js";
import { runScenario } from "../../core/scenario/engine.js";
import type { ChainMover } from "../../core/scenario/mover.js";
import type { ScenarioRecord, StepRecord } from "../../core/scenario/record.js";
import type { Scenario } from "../../core/scenario/scenario.js";
import type { Build } from "../../core/targets/config.js";
import type { JsonRpcEndpoint } from "../../core/targets/endpoint.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { latestBlockProbe } from "../../zcash/scenario/tip-probe.js";

export interface ScenarioRunOptions {
  scenarios: readonly Scenario[];
  chain: ChainProfile;
  ledger: readonly Quirk[];
  onStep?: (scenario: Scenario, step: StepRecord) => void;
  onScenario?: (record: ScenarioRecord) => void;
  /** Ctrl-C: the scenario under way ends where it stands, and no other starts. */
  signal?: AbortSignal;
}

export interface MovingNetwork {
  builds: readonly Build[];
  /** The node's JSON-RPC: the oracle. */
  oracle: JsonRpcEndpoint;
  mover: ChainMover;
}

export async function runScenariosOn(net: MovingNetwork, o: ScenarioRunOptions): Promise<ScenarioRecord[]> {
  const grpc = new Map<string, GrpcTarget>();
  const jsonrpc = new Map<string, JsonRpcTarget>();
  const oracleTarget = jsonRpcTarget(net.oracle);
  try {
    for (const b of net.builds) {
      const limits = { deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes, maxCallBytes: b.maxCallBytes };
      if (b.grpc) grpc.set(b.name, grpcTarget(b.grpc, { ...limits, maxMessages: b.maxStreamMessages }));
      if (b.jsonrpc) jsonrpc.set(b.name, jsonRpcTarget(b.jsonrpc, { ...limits, connections: b.concurrency }));
    }
    const ledger = ledgerOnChain(o.ledger, o.chain.name);
    const byName = new Map(net.builds.map((b) => [b.name, b]));
    const protocolVersions = new Map(net.builds.flatMap((b) => (b.protocolVersion ? [[b.name, b.protocolVersion] as const] : [])));
    const records: ScenarioRecord[] = [];
    for (const s of o.scenarios) {
      if (o.signal?.aborted) break;
      const record = await runScenario(s, {
        protocol: lightwalletProtocol,
        builds: net.builds,
        connections: { grpc, jsonrpc },
        oracle: () => lightwalletProtocol.oracle(oracleTarget),
        chain: o.chain,
        mover: net.mover,
        probe: latestBlockProbe(grpc, net.builds[0]?.deadlineMs ?? 15_000),
        classify: (d, b, c) => {
          const build = byName.get(b.name)!;
          return classify(
            ledger,
            d,
            { caseId: c.id, method: c.method, transport: c.transport },
            { name: build.name, implementation: build.implementation, version: build.version, protocolVersion: protocolVersions.get(build.name) },
          );
        },
        protocolVersions,
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.onStep ? { onStep: (step: StepRecord) => o.onStep!(s, step) } : {}),
      });
      records.push(record);
      o.onScenario?.(record);
    }
    return records;
  } finally {
    await Promise.all([...grpc.values()].map((t) => t.close()));
    await Promise.all([...jsonrpc.values()].map((t) => t.close()));
    await oracleTarget.close();
  }
}
