// A server that breaks HTTP/2 mid-run is a fault of that build, not a crash of the run:
// its connection is ended the moment the client's HTTP/2 layer gives up on it (it sends
// GOAWAY, which node does not report: grpc-wire.ts reads it off the wire), the calls on it
// are `protocol` faults at once rather than at their deadline, each later call gets a
// fresh connection and breaks as fast, and the run goes on, exits 3 and writes every
// report. The peers are written frame by frame (tools/raw-http2.ts); each answers the
// preflight's GetLightdInfo plainly, so the cases meet the break.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { besideHealthy, type BesideHealthy } from "./tools/beside-healthy.js";
import { ATTACKS, startRawHttp2Peer } from "./tools/raw-http2.js";
import { answersOf, faultsOf } from "./tools/run-reports.js";

const CASES = 20;
const DEADLINE_MS = 20_000;
let env: BesideHealthy;

beforeAll(async () => {
  env = await besideHealthy(CASES);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

/** A run with a build served by the peer that makes `attack`, beside the healthy one. */
async function brokenBuild(attack: string): Promise<void> {
  const peer = await startRawHttp2Peer(ATTACKS[attack]!, { answerFirst: 1 });
  try {
    const r = await env.run(attack, [`  - { name: broken, implementation: other, deadlineMs: ${DEADLINE_MS}, grpc: { url: "${peer.url}" } }`]);
    expect(r.code).toBe(3);
    expect(answersOf(r.report, "healthy")).toEqual(env.baseline);
    expect(faultsOf(r.report, "broken")).toEqual(Array.from({ length: CASES }, () => "protocol"));
    for (const c of r.report.cases) {
      for (const a of c.answers.filter((x) => x.side === "broken")) {
        expect(a.fault?.detail).toMatch(/^the client ended the connection with GOAWAY [A-Z_]+.*: the server broke HTTP\/2$/);
        expect(a.ms).toBeLessThan(DEADLINE_MS / 4);
      }
    }
    // The preflight's connection, then fresh ones for the cases as each one broke.
    expect(peer.connections()).toBeGreaterThan(2);
    expect(r.ms).toBeLessThan(120_000);
    expect(r.stdout).toContain(`could not check broken: not the expected protocol on ${CASES}/${CASES} cases — the client ended the connection with GOAWAY`);
  } finally {
    await peer.close();
  }
}

describe("a build whose server breaks HTTP/2 beside a healthy one: protocol faults of that build at once, fresh connections, exit 3, every report, the healthy build intact", () => {
  test("a DATA frame on stream 0", () => brokenBuild("data-on-stream-0"), 300_000);
  test("a header value declared at 1 GiB across CONTINUATION frames", () => brokenBuild("long-continuation"), 300_000);
  test("frames of another stream inside a header block", () => brokenBuild("interleaved-header-block"), 300_000);
});
