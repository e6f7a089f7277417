// Matching divergences to ledger entries. A divergence is known when an entry's builds,
// protocol range, method, case, path, kind and shape all fit it; a different divergence
// on the same field (another kind, another code, another factor) stays new.

import semver from "semver";
import { protocolIn } from "../corpus/protocol-version.js";
import type { JsonValue } from "@bufbuild/protobuf";
import type { Divergence } from "../diff/divergence.js";
import type { Transport } from "../targets/observation.js";
import type { BuildSelector, Quirk } from "./quirk.js";
import { glob } from "../corpus/glob.js";
import type { NodeIdentity } from "../targets/config.js";

export interface BuildIdentity {
  name: string;
  implementation: string;
  version?: string;
  /**
   * Neither the config nor the server named a release (a development build): entries
   * limited to versions apply as to any version of the implementation, and are never
   * reported stale for it.
   */
  versionUnknown?: boolean;
  /** The node the build is backed by, from the config or from what the server reports. */
  node?: NodeIdentity;
  protocolVersion?: string;
}

export interface DivergenceContext {
  caseId: string;
  method: string;
  transport: Transport;
}

function versionSelected(versions: BuildSelector["versions"], version: string | undefined, unknown = false): boolean {
  if (versions === undefined || unknown) return true;
  if (version === undefined) return false;
  if (Array.isArray(versions)) return versions.includes(version);
  const v = semver.coerce(version, { includePrerelease: true });
  return v !== null && semver.valid(version) !== null && semver.satisfies(v, versions, { includePrerelease: true });
}

function fixedBy(fixedIn: string | undefined, version: string | undefined): boolean {
  if (!fixedIn || !version || semver.valid(version) === null || semver.valid(fixedIn) === null) return false;
  return semver.gte(version, fixedIn);
}

/** A node selector holds only for a build whose node is known and fits it. */
function nodeSelected(node: BuildSelector["node"], b: BuildIdentity): boolean {
  if (node === undefined) return true;
  if (b.node === undefined) return false;
  return (node.implementation === undefined || node.implementation === b.node.implementation) && versionSelected(node.versions, b.node.version);
}

/** Whether the entry is about this build at all (builds, versions, node, fixed_in, protocol). */
export function appliesTo(q: Quirk, b: BuildIdentity): boolean {
  const selected = q.builds.some(
    (s) =>
      (s.implementation === undefined || s.implementation === b.implementation) &&
      (s.names === undefined || s.names.includes(b.name)) &&
      versionSelected(s.versions, b.version, b.versionUnknown) &&
      nodeSelected(s.node, b),
  );
  if (!selected || (!b.versionUnknown && fixedBy(q.fixedIn, b.version))) return false;
  if (q.protocol === undefined) return true;
  return protocolIn(b.protocolVersion, q.protocol) === true;
}

function values(v: JsonValue | undefined): JsonValue[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function jsonType(v: JsonValue | undefined): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function shapeFits(q: Quirk, d: Divergence): boolean {
  const s = q.match.shape;
  if (!s) return true;
  const inList = (list: (string | number)[] | undefined, got: JsonValue[]) => list === undefined || got.some((g) => list.some((x) => String(x) === String(g)));
  if (!inList(s.from, values(d.leftValue)) || !inList(s.to, values(d.rightValue))) return false;
  if (s.factor !== undefined && (d.factor === undefined || Math.abs(d.factor - s.factor) > 1e-9)) return false;
  if (s.fromType !== undefined && jsonType(d.leftValue) !== s.fromType) return false;
  if (s.toType !== undefined && jsonType(d.rightValue) !== s.toType) return false;
  const fits = (want: number | "*", got: JsonValue | undefined) => want === "*" || want === got;
  if (s.counts !== undefined && d.kind === "count" && !s.counts.some(([l, r]) => fits(l, d.leftValue) && fits(r, d.rightValue))) return false;
  return true;
}

export function quirkMatches(q: Quirk, d: Divergence, ctx: DivergenceContext, b: BuildIdentity): boolean {
  const m = q.match;
  const kinds: readonly string[] = Array.isArray(q.kind) ? q.kind : [q.kind];
  const paths = m.path === undefined ? undefined : Array.isArray(m.path) ? m.path : [m.path];
  return (
    kinds.includes(d.kind) &&
    (m.transport === undefined || m.transport === ctx.transport) &&
    (m.methods === undefined || m.methods.includes(ctx.method)) &&
    (m.cases === undefined || m.cases.some((p) => glob(p, ctx.caseId))) &&
    (paths === undefined || paths.some((p) => glob(p, d.path, true))) &&
    shapeFits(q, d) &&
    appliesTo(q, b)
  );
}

/** The id of the first entry that explains the divergence, or null when it is new. */
export function classify(ledger: readonly Quirk[], d: Divergence, ctx: DivergenceContext, b: BuildIdentity): string | null {
  for (const q of ledger) if (quirkMatches(q, d, ctx, b)) return q.id;
  return null;
}
