// The verdict of a case over all builds.
//
// Builds are grouped by identical canonical forms (for an `error` expectation, by the
// code they failed with, since only the code is prescribed). The reference is, in order:
//   - the expectation, for `error` cases: builds answering an allowed code conform;
//   - for `ok` cases, the strict majority of the successful answers: an error conforms to
//     nothing, however many builds answer it (Ping when disabled);
//   - the oracle, when one is given: the group equal to the oracle's answer;
//   - otherwise a strict majority group of the answering builds (more than half). With
//     no strict majority (e.g. two builds that differ, or 3-2-1 of six) there is no way
//     to tell who is right, and the verdict is `split`.
// Verdicts: agree (every build matches the reference, or all agree when there is none),
// deviant (named builds differ from a reference the others match), all-vs-oracle (the
// answering builds agree with each other but not with the oracle or expectation), split
// (no reference), unavailable (no build answered, or an oracle-anchored case whose
// oracle could not answer: nothing could be checked), unjudged (one build, and neither
// an oracle answer nor an expected error to measure it against). A build with a fault gave no answer: it is listed in
// `unavailable` and, when there is a reference, among the deviants, since the others
// did answer.

import { sameCanonical, type Canonical } from "../canon/index.js";
import type { Expectation } from "../corpus/case.js";
import { conformsToError, errorCodeOf } from "./expect.js";

export type VerdictKind = "agree" | "deviant" | "all-vs-oracle" | "split" | "unavailable" | "unjudged";

export interface Verdict {
  verdict: VerdictKind;
  /** Builds that differ from the reference, in the order they were given. */
  deviants: string[];
  /** Builds with identical answers; answering groups largest first, then builds with a
   * fault grouped by fault kind. Every build is in exactly one group. */
  groups: string[][];
  /** What the builds were measured against. */
  reference: "oracle" | "expectation" | "majority" | "none";
  /** Builds that gave no answer (their observation has a fault). */
  unavailable: string[];
  detail: string;
}

export function verdictOf(observations: ReadonlyMap<string, Canonical>, oracle?: Canonical, options: { expect?: Expectation } = {}): Verdict {
  const names = [...observations.keys()];
  const expect = options.expect;
  const answering = names.filter((n) => !observations.get(n)!.fault);
  const unavailable = names.filter((n) => observations.get(n)!.fault);
  const byCode = expect?.kind === "error";
  const same = (x: Canonical, y: Canonical) => (byCode ? errorCodeOf(x) === errorCodeOf(y) : sameCanonical(x, y));
  const succeeded = (g: readonly string[]) => errorCodeOf(observations.get(g[0]!)!) === undefined;
  const answerGroups = groupBy(answering, (n) => observations.get(n)!, same).sort(
    (x, y) => (expect?.kind === "ok" ? Number(succeeded(y)) - Number(succeeded(x)) : 0) || y.length - x.length,
  );
  const faultGroups = groupBy(
    unavailable,
    (n) => observations.get(n)!,
    (x, y) => x.fault!.kind === y.fault!.kind,
  );
  const groups = [...answerGroups, ...faultGroups];
  const v = (verdict: VerdictKind, reference: Verdict["reference"], deviants: string[], detail: string): Verdict => ({
    verdict,
    deviants,
    groups,
    reference,
    unavailable,
    detail,
  });
  const others = (ref: readonly string[]) => names.filter((n) => !ref.includes(n));

  if (answering.length === 0) return v("unavailable", "none", [], names.length === 0 ? "no build was asked" : "no build answered");
  if (expect?.kind === "oracle" && !oracle) return v("unavailable", "oracle", [], "oracle-anchored case without an oracle answer");
  if (!byCode && oracle?.fault) return v("unavailable", "oracle", [], `the oracle could not answer (${oracle.fault.kind}: ${oracle.fault.detail})`);

  if (byCode) {
    const conforming = answering.filter((n) => conformsToError(observations.get(n)!, expect.codes));
    if (conforming.length === names.length) return v("agree", "expectation", [], `every build answered an expected code (${expect.codes.join(", ")})`);
    if (conforming.length > 0) return v("deviant", "expectation", others(conforming), `expected ${expect.codes.join(" or ")}`);
    if (answerGroups.length === 1)
      return v("all-vs-oracle", "expectation", [], `the builds agree with each other, and none answered ${expect.codes.join(" or ")}`);
    return v("split", "expectation", [], `no build answered ${expect.codes.join(" or ")}, and they disagree`);
  }
  if (oracle) {
    const ref = answerGroups.find((g) => sameCanonical(oracle, observations.get(g[0]!)!));
    if (ref && ref.length === names.length) return v("agree", "oracle", [], "every build matches the oracle");
    if (ref) return v("deviant", "oracle", others(ref), `${ref.length} of ${names.length} builds match the oracle`);
    if (answerGroups.length === 1) return v("all-vs-oracle", "oracle", [], "the builds agree with each other but not with the oracle");
    return v("split", "oracle", [], `${answerGroups.length} different answers, none equal to the oracle's`);
  }
  if (expect?.kind === "ok") {
    const okCount = answerGroups.filter(succeeded).reduce((n, g) => n + g.length, 0);
    const top = answerGroups[0]!;
    if (okCount === 0) return v(answerGroups.length === 1 ? "all-vs-oracle" : "split", "expectation", [], "no build answered successfully");
    if (top.length === names.length) return v("agree", "expectation", [], "every build answered successfully, with the same answer");
    if (top.length * 2 > okCount)
      return v("deviant", "expectation", others(top), `${top.length} of ${okCount} successful answers agree; an error conforms to nothing`);
    return v("split", "expectation", [], `${okCount} successful answers and no strict majority among them`);
  }
  if (names.length === 1) return v("unjudged", "none", [], "one build, and no oracle answer or expected error to measure it against");
  const top = answerGroups[0]!;
  if (top.length === names.length) return v("agree", "none", [], "every build gave the same answer");
  if (top.length * 2 > answering.length)
    return v(
      "deviant",
      "majority",
      others(top),
      `${top.length} of ${answering.length} answering builds agree (no oracle: the strict majority is the reference)`,
    );
  return v("split", "none", [], `${answerGroups.length} different answers and no strict majority`);
}

/** Groups names whose values are equal, comparing each with a group's first member. */
function groupBy<T>(names: readonly string[], get: (n: string) => T, eq: (x: T, y: T) => boolean): string[][] {
  const groups: string[][] = [];
  for (const n of names) {
    const g = groups.find((x) => eq(get(x[0]!), get(n)));
    if (g) g.push(n);
    else groups.push([n]);
  }
  return groups;
}

/**
 * The verdict when builds are measured against different oracle answers — each against
 * the answer for the protocol version it speaks, or against the node it is backed by
 * when that is not the run's oracle. A build conforms when it equals its own oracle
 * answer; the kinds mean what they mean for one oracle.
 */
export function verdictAgainstEach(observations: ReadonlyMap<string, Canonical>, oracles: ReadonlyMap<string, Canonical>): Verdict {
  const names = [...observations.keys()];
  const answering = names.filter((n) => !observations.get(n)!.fault);
  const unavailable = names.filter((n) => observations.get(n)!.fault);
  const groups = [
    ...groupBy(answering, (n) => observations.get(n)!, sameCanonical).sort((x, y) => y.length - x.length),
    ...groupBy(
      unavailable,
      (n) => observations.get(n)!,
      (x, y) => x.fault!.kind === y.fault!.kind,
    ),
  ];
  const v = (verdict: VerdictKind, deviants: string[], detail: string): Verdict => ({ verdict, deviants, groups, reference: "oracle", unavailable, detail });
  if (answering.length === 0) return v("unavailable", [], "no build answered");
  const faulted = names.find((n) => oracles.get(n)?.fault);
  if (faulted) return v("unavailable", [], `the oracle could not answer for ${faulted} (${oracles.get(faulted)!.fault!.kind})`);
  const conforming = answering.filter((n) => sameCanonical(oracles.get(n)!, observations.get(n)!));
  const others = names.filter((n) => !conforming.includes(n));
  if (conforming.length === names.length)
    return v("agree", [], "every build matches the answer it is measured against (the oracle for the protocol version it speaks, or its own node)");
  if (conforming.length > 0) return v("deviant", others, `${conforming.length} of ${names.length} builds match the answer they are measured against`);
  if (groups.length === 1) return v("all-vs-oracle", [], "the builds agree with each other but not with the oracle");
  return v("split", [], "no build matches the answer it is measured against");
}
