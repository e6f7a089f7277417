// The ~40 ms plateau: when a server does not set TCP_NODELAY, Nagle's algorithm holds a
// small second write (the trailers after the message) until the previous segment is
// acknowledged, and the client's delayed ACK comes ~40 ms later (Linux). Each answer the
// server writes that way then takes ~40 ms, however fast the server is
// (spec/lightwallet-protocol.md §3.5). Which answers those are depends on the server's
// HTTP/2 stack: a tonic server such as Zaino writes an answer whose gRPC frame is under 256
// bytes in one write, and only larger ones in two (src/zcash/fixture/grpc/h2-writes.ts).
//
// A build shows it for an rpc when both hold:
// - something comparable is fast (p50 < 20 ms), the baseline: the build's own large
//   answer when that is fast (a GetBlock of 1,400 bytes or more; it shares the build's
//   network path), else the reference build's same rpc. On loopback a server without
//   TCP_NODELAY holds the large answer too (its trailers wait as well), so there the
//   reference is the baseline;
// - its calls sit on a floor ~40 ms above the baseline (the delayed ACK comes on top of
//   the ordinary round trip): at least 80% of them took ≥ 30 ms more than the baseline's
//   p10;
// - and that time is held inside the answer: from its first byte (the response headers,
//   in the first write) to its end, the p10 is 30–50 ms (a hold near 40, not anywhere
//   higher). A server that is slow before it answers has no such gap, however slow it is.
// The first condition keeps a server that is simply ~40 ms away from being reported:
// then its large answers are slow as well. The rule looks at the floor (low percentiles)
// rather than at a 35–45 ms band because load only ever adds time. On this project's
// 2-core machine at a load average of ~6, under jest, a 40 ± 2 ms plateau (as the Zaino
// profiles once emulated it, with a timer) put as few as 10% of calls inside 35–45 ms and
// medians at 50–58 ms, while the calls' p10 stayed 39–45 ms above a baseline p10 of
// 4–10 ms; a 35-ms threshold with baselines inflated that much by load misses, hence 30.
// The share inside 35–45 ms above the baseline is still reported (plateauShare), as the
// picture of the cluster. The ceiling is on the hold, not on the time above the baseline:
// real zainod's GetTreeState spends ~10 ms before its first byte, which put its p10
// ~50 ms above the reference's, past a ceiling measured that way, while its hold was 41–44
// ms like every other held answer (bench/README.md, the plateau from its cause).

import { latencyDivergence, type Divergence } from "../../core/diff/divergence.js";
import { percentile, type LatencyStats } from "./stats.js";

/** The band reports show as the cluster, above the baseline. */
export const PLATEAU_LOW_MS = 35;
export const PLATEAU_HIGH_MS = 45;
/** The floor: at least FLOOR_SHARE of the calls this much above the baseline … */
export const FLOOR_MS = 30;
export const FLOOR_SHARE = 0.8;
/** … and the p10 of their holds (first byte to end) between FLOOR_MS and this. */
export const FLOOR_HIGH_MS = 50;
export const FAST_MS = 20;

/** Share of samples 35–45 ms above `baseMs` (the cluster, as reports show it). */
export function plateauShare(samples: readonly number[], baseMs = 0): number {
  if (samples.length === 0) return 0;
  return samples.filter((v) => v - baseMs >= PLATEAU_LOW_MS && v - baseMs <= PLATEAU_HIGH_MS).length / samples.length;
}

export interface TimedRpc {
  build: string;
  rpc: string;
  samples: readonly number[];
  /** Per sample, ms from the answer's first byte to its end. */
  holds: readonly number[];
  stats: LatencyStats;
  /** Calls that did not answer OK; a mostly failing rpc is not judged. */
  errors: number;
}

export interface Control {
  build: string;
  stats: LatencyStats;
  /** 10th percentile of the control's calls, ms. */
  p10: number;
  /** Bytes of the answer: the control counts only when it fills a segment. */
  answerBytes: number;
  ok: boolean;
}

/** Usable baseline for an rpc of a build, or undefined. */
export interface Baseline {
  /** The side the divergence is measured against. */
  side: string;
  /** Its p50 (what the divergence shows) and p10 (where the floor is measured from), ms. */
  ms: number;
  floorMs: number;
  what: string;
}

export function baseline(t: TimedRpc, reference: TimedRpc | undefined, control: Control | undefined): Baseline | undefined {
  if (control?.ok && control.answerBytes >= 1400 && control.stats.p50 < FAST_MS) {
    return { side: t.build, ms: control.stats.p50, floorMs: control.p10, what: `its own ${control.answerBytes}-byte GetBlock answers` };
  }
  if (reference && reference.build !== t.build && judged(reference) && reference.stats.p50 < FAST_MS) {
    return { side: reference.build, ms: reference.stats.p50, floorMs: p10(reference.samples), what: `${reference.build}'s ${t.rpc}` };
  }
  return undefined;
}

/** Share of samples at least FLOOR_MS above `baseMs`. */
export function floorShare(samples: readonly number[], baseMs: number): number {
  if (samples.length === 0) return 0;
  return samples.filter((v) => v - baseMs >= FLOOR_MS).length / samples.length;
}

const p10 = (xs: readonly number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    10,
  );

/** Whether the calls sit on the plateau above `baseMs`, the time held inside their answers. */
export function onPlateau(samples: readonly number[], holds: readonly number[], baseMs: number): boolean {
  const hold = p10(holds);
  return floorShare(samples, baseMs) >= FLOOR_SHARE && p10(samples) - baseMs >= FLOOR_MS && hold >= FLOOR_MS && hold <= FLOOR_HIGH_MS;
}

function judged(t: TimedRpc): boolean {
  return t.samples.length > 0 && t.errors <= t.samples.length / 2;
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/** A latency divergence (path latency.p50) for every build × rpc that plateaus. */
export function detectPlateau(t: TimedRpc, reference: TimedRpc | undefined, control: Control | undefined): Divergence | undefined {
  if (!judged(t)) return undefined;
  const base = baseline(t, reference, control);
  if (!base) return undefined;
  if (!onPlateau(t.samples, t.holds, base.floorMs)) return undefined;
  const floor = floorShare(t.samples, base.floorMs);
  const band = plateauShare(t.samples, base.floorMs);
  return latencyDivergence(
    "p50",
    base.side,
    t.build,
    base.ms,
    t.stats.p50,
    `${t.rpc} p50 ${fmt(t.stats.p50)} ms vs ${fmt(base.ms)} ms for ${base.what} (p10 ${fmt(base.floorMs)} ms): ` +
      `${Math.round(100 * floor)}% of ${t.samples.length} calls took ` +
      `${FLOOR_MS} ms or more longer (${Math.round(100 * band)}% ${PLATEAU_LOW_MS}-${PLATEAU_HIGH_MS} ms longer), ` +
      `held ${fmt(p10(t.holds))} ms (p10) between the answer's first byte and its end, ` +
      "the plateau of TCP_NODELAY off on one side and delayed ACKs on the other",
  );
}
