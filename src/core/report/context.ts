// What file reporters know beyond the event stream: the ledger entries (so a known
// divergence shows its quirk's title and reference, not only its id) and how each
// endpoint authenticates (so a reproduce command can say what to add — never the
// credential itself). Everything here is optional: without it reports show ids only.

import type { Quirk } from "../ledger/quirk.js";
import type { RunConfig } from "../targets/config.js";
import type { Endpoint } from "../targets/endpoint.js";
import type { AuthKind } from "./reproduce.js";

export interface QuirkInfo {
  id: string;
  title: string;
  kind: string;
  reference: string;
  status: string;
  expires?: string;
  fixedIn?: string;
  notes?: string;
  source?: string;
}

export interface ReportContext {
  quirks?: readonly QuirkInfo[];
  /** Per build name (and "oracle"), the kind of credentials each endpoint takes. */
  auth?: Readonly<Record<string, { grpc?: AuthKind; jsonrpc?: AuthKind }>>;
  /** Protobuf JSON field names whose 32-byte values are hashes shown in display order (the protocol's wing says which). */
  hashFields?: readonly string[];
}

export function quirkInfo(q: Quirk): QuirkInfo {
  return {
    id: q.id,
    title: q.title,
    kind: Array.isArray(q.kind) ? q.kind.join(", ") : q.kind,
    reference: q.reference,
    status: q.status,
    ...(q.expires ? { expires: q.expires } : {}),
    ...(q.fixedIn ? { fixedIn: q.fixedIn } : {}),
    ...(q.notes ? { notes: q.notes } : {}),
    source: `${q.source.file}:${q.source.line}`,
  };
}

/** The context of a run: its ledger and config. Only auth *kinds* are kept. */
export function reportContext(ledger: readonly Quirk[], config?: RunConfig, hashFields: readonly string[] = []): ReportContext {
  const auth: Record<string, { grpc?: AuthKind; jsonrpc?: AuthKind }> = {};
  const kind = (ep: Endpoint | undefined): AuthKind | undefined =>
    ep?.auth?.kind ?? (ep?.headers && Object.keys(ep.headers).length > 0 ? "headers" : undefined);
  const entry = (grpc: Endpoint | undefined, jsonrpc: Endpoint | undefined) => {
    const g = kind(grpc);
    const j = kind(jsonrpc);
    return { ...(g ? { grpc: g } : {}), ...(j ? { jsonrpc: j } : {}) };
  };
  for (const b of config?.builds ?? []) auth[b.name] = entry(b.grpc, b.jsonrpc);
  if (config?.oracle) auth.oracle = entry(undefined, config.oracle.jsonrpc);
  return { quirks: ledger.map(quirkInfo), auth, ...(hashFields.length > 0 ? { hashFields } : {}) };
}
