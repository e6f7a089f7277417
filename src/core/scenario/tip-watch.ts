// Tip following, measured: for every block the node accepts (and every reorganization),
// the time until each build serves it as its latest block. Each build is asked for its
// tip only while it lags the node, every `probeMs`.

import type { TipId } from "./mover.js";
import { afterArrived } from "../targets/client-clock.js";

export interface TipEvent extends TipId {
  kind: "block" | "reorg";
  /** performance.now() when the node had it. */
  at: number;
  /** For a reorganization, the height of the last block both branches share. */
  forkPoint?: number;
}

/** One event, and the ms each build took to serve it (null: not within the run, or orphaned before it did). */
export interface TipRecord {
  event: TipEvent;
  served: Map<string, number | null>;
}

export type TipProbe = (build: string) => Promise<TipId | undefined>;

export interface TipWatch {
  /** The node's tip before any event: what every build should already serve. */
  baseline(tip: TipId): void;
  record(event: TipEvent): void;
  /** Resolves when every build serves the node's tip, or at the deadline; the ms each took (null: not by then). */
  atTip(deadlineMs: number): Promise<Map<string, number | null>>;
  records(): TipRecord[];
  stop(): Promise<void>;
}

export function watchTips(builds: readonly string[], probe: TipProbe, probeMs: number): TipWatch {
  const records: TipRecord[] = [];
  const seen = new Map<string, TipId | undefined>(builds.map((b) => [b, undefined]));
  let node: TipId | undefined;
  let stopped = false;
  let wake: () => void = () => {};
  let changed = new Promise<void>((r) => (wake = r));
  const behind = (b: string) => node !== undefined && seen.get(b)?.hash !== node.hash;
  const apply = (b: string, tip: TipId, at: number) => {
    seen.set(b, tip);
    for (const r of records) {
      if (r.served.has(b)) continue;
      const e = r.event;
      if (tip.height > e.height || (tip.height === e.height && tip.hash === e.hash)) r.served.set(b, Math.round((at - e.at) * 10) / 10);
    }
  };
  const loops = builds.map(async (b) => {
    while (!stopped) {
      if (!behind(b)) {
        await changed;
        continue;
      }
      const tip = await probe(b).catch(() => undefined);
      if (tip) apply(b, tip, performance.now());
      if (behind(b)) await new Promise((r) => setTimeout(r, probeMs));
    }
  });
  const moved = () => {
    wake();
    changed = new Promise<void>((r) => (wake = r));
  };
  return {
    baseline(tip) {
      node = tip;
      moved();
    },
    record(event) {
      // Blocks the reorganization dropped before a build served them are not its to serve any more.
      if (event.kind === "reorg") {
        for (const r of records) {
          if (r.event.height > (event.forkPoint ?? -1)) for (const b of builds) if (!r.served.has(b)) r.served.set(b, null);
        }
      }
      records.push({ event, served: new Map() });
      node = { height: event.height, hash: event.hash };
      moved();
    },
    async atTip(deadlineMs) {
      const since = performance.now();
      const reached = new Map<string, number | null>();
      for (;;) {
        const now = performance.now() - since;
        for (const b of builds) if (!reached.has(b) && !behind(b)) reached.set(b, Math.round(now));
        if (reached.size === builds.length || now >= deadlineMs) break;
        // The next look only once the loop has read what arrived: a tip probed in time counts.
        await new Promise((r) => afterArrived(() => r(undefined), probeMs));
      }
      for (const b of builds) if (!reached.has(b)) reached.set(b, null);
      return reached;
    },
    records: () => records,
    async stop() {
      stopped = true;
      wake();
      await Promise.all(loops);
    },
  };
}
