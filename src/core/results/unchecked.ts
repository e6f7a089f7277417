// One line per build (and the oracle) that could not be checked: on how many of its
// cases, what happened, and what to do. The terminal prints these lines, the JSON
// report keeps them in its summary, the other reports repeat them.

import { adviceFor } from "../targets/fault-advice.js";
import type { FaultKind } from "../targets/observation.js";
import type { CaseResult } from "./result.js";

export interface UncheckedSide {
  /** A build name, or "oracle". */
  side: string;
  /** Cases this side left unchecked, of the cases it was asked (for the oracle: that needed it). */
  cases: number;
  of: number;
  /** The most frequent fault, its detail from the first case it showed in, and advice. */
  fault: FaultKind;
  what: string;
  detail: string;
  hint: string;
  /** Cases with a different fault than the one named. */
  otherFaults: number;
}

export function uncheckedSides(results: readonly CaseResult[], builds: readonly string[]): UncheckedSide[] {
  const per = new Map<string, { of: number; faults: { kind: FaultKind; detail: string }[] }>();
  const side = (name: string) => {
    let s = per.get(name);
    if (!s) per.set(name, (s = { of: 0, faults: [] }));
    return s;
  };
  for (const r of results) {
    if (r.skipped) continue;
    for (const a of r.answers) side(a.side).of++;
    if (r.expect === "oracle" && r.oracle) side("oracle").of++;
    const byOracle = (r.outcomes ?? []).find((o) => o.outcome === "unchecked" && o.cause === "oracle");
    if (byOracle?.fault) side("oracle").faults.push(byOracle.fault);
    for (const o of r.outcomes ?? []) {
      if (o.outcome === "unchecked" && o.cause === o.build && o.fault) side(o.build).faults.push(o.fault);
    }
  }
  const order = [...builds, "oracle"];
  return [...per]
    .filter(([, s]) => s.faults.length > 0)
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([name, s]) => {
      const counts = new Map<FaultKind, number>();
      for (const f of s.faults) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
      // A side found unresponsive is named so, whatever its timeouts before that were.
      const [kind, n] = counts.has("unresponsive") ? ["unresponsive" as const, counts.get("unresponsive")!] : [...counts].sort((x, y) => y[1] - x[1])[0]!;
      const first = s.faults.find((f) => f.kind === kind)!;
      const advice = kind === "unresponsive" ? UNRESPONSIVE : adviceFor(first);
      return {
        side: name,
        cases: s.faults.length,
        of: Math.max(s.of, s.faults.length),
        fault: kind,
        what: advice.what,
        detail: first.detail,
        hint: advice.hint,
        otherFaults: s.faults.length - n,
      };
    });
}

const UNRESPONSIVE = {
  what: "unresponsive",
  hint: "is the server stuck (a stopped process keeps its sockets open)? raise deadlineMs or unresponsiveAfter if it is only slow",
};

/**
 * "mybackend: unreachable on 278/278 cases — connect ECONNREFUSED 127.0.0.1:9067; is the server running?"
 * "mybackend: unresponsive — after 3 timeouts in a row (client deadline 2000 ms); its remaining 240 cases were not sent (4 with other faults); …"
 */
export function uncheckedLine(u: UncheckedSide): string {
  const others = u.otherFaults > 0 ? ` (${u.otherFaults} with other faults)` : "";
  if (u.fault === "unresponsive") {
    return `${u.side}: ${u.what} — ${u.detail}; its remaining ${u.cases - u.otherFaults} cases were not sent${others}; ${u.hint}`;
  }
  return `${u.side}: ${u.what} on ${u.cases}/${u.of} cases${others} — ${u.detail}; ${u.hint}`;
}
