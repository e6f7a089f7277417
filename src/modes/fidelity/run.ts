// One fidelity run: the fixture network with the reference and the emulated profiles
// nearest to each installed real server, the real servers against its JSON-RPC, the
// whole corpus through all of them, and the fidelity of each profile to its real server.

import type { Case } from "../../core/corpus/case.js";
import type { ChainProfile } from "../../core/corpus/chain-profile.js";
import type { Quirk } from "../../core/ledger/quirk.js";
import type { Reporter } from "../../core/results/events.js";
import { runSession, type SessionResult } from "../../core/run/session.js";
import { DEFAULT_LIMITS, type RunConfig } from "../../core/targets/config.js";
import { fidelityOf, type Fidelity } from "./fidelity.js";
import { startFixtureNetwork, PROFILE_NAMES, type ProfileName } from "../../zcash/fixture/network.js";
import { goldenDrift } from "../golden/drift.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { REAL_DEADLINE_MS, startRealServers, realBuildName } from "../../zcash/real/servers.js";
import type { Pin } from "../../zcash/real/pins.js";

/** The emulated profile a real server is compared with: same implementation, nearest version. */
export function profileFor(pin: Pin): ProfileName | undefined {
  if (pin.name === "lightwalletd") return "lightwalletd";
  if (pin.name !== "zainod") return undefined;
  const exact = `zaino-${pin.version}`;
  if ((PROFILE_NAMES as readonly string[]).includes(exact)) return exact as ProfileName;
  return pin.version.localeCompare("0.10.0", undefined, { numeric: true }) >= 0 ? "zaino-0.10.1" : "zaino-0.9.0";
}

export interface FidelityRunOptions {
  cases: readonly Case[];
  ledger: readonly Quirk[];
  reporters?: Reporter[];
  signal?: AbortSignal;
  /** Also compare every answer with the goldens under this folder (drift). */
  goldenRoot?: string;
}

export interface FidelityRun {
  fidelities: Fidelity[];
  /** Per real server: its label, its pin and how long it took to ingest the chain. */
  servers: { name: string; pin: Pin; ingestMs: number }[];
  notes: string[];
  session: SessionResult;
}

export async function runFidelity(o: FidelityRunOptions): Promise<FidelityRun> {
  // Every profile runs, as in the demo: verdicts of "agree" cases take the majority, and
  // the real builds' own divergences (which explain a difference) must be judged against
  // the same field of builds as any demo run.
  const net = await startFixtureNetwork({ profiles: PROFILE_NAMES });
  try {
    // Steady state: fidelity compares the emulation with the servers' steady answers (their cold start is the ledger's).
    const real = await startRealServers(net, { steady: true });
    try {
      const pairs = real.servers.flatMap((s) => {
        const profile = profileFor(s.pin);
        return profile ? [{ emulated: profile, real: realBuildName(s.pin) }] : [];
      });
      const config: RunConfig = {
        file: "(fixture network)",
        chain: "fixture",
        oracle: { jsonrpc: { url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }, source: { file: "(fixture network)", line: 0 } },
        defaults: DEFAULT_LIMITS,
        builds: [...net.builds({ deadlineMs: 15_000 }), ...real.builds({ deadlineMs: REAL_DEADLINE_MS })],
      };
      const chain: ChainProfile = { name: "fixture", network: net.model.network.name, anchors: net.anchors, dynamic: {} };
      const session = await runSession({
        config,
        cases: o.cases,
        chain,
        ledger: o.ledger,
        reporters: o.reporters ?? [],
        protocol: lightwalletProtocol,
        allowStale: true,
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.goldenRoot
          ? { drift: goldenDrift(lightwalletProtocol, o.goldenRoot, chain.name, new Set(config.builds.filter((b) => b.emulated).map((b) => b.name))) }
          : {}),
      });
      return {
        fidelities: pairs.map((p) => fidelityOf(session.results, p, o.ledger)),
        servers: real.servers.map((s) => ({ name: realBuildName(s.pin), pin: s.pin, ingestMs: s.ingestMs })),
        notes: real.notes,
        session,
      };
    } finally {
      await real.close();
    }
  } finally {
    await net.close();
  }
}
