// How a run was made, where that weakens what its results mean. Reports record these
// and the terminal warns about each: certificate checks switched off, no oracle (cases
// anchored to it cannot be judged), credentials sent in clear to another machine, a build
// whose version nobody could name (ledger entries limited to versions then apply to it as
// to any version), a chain whose anchors could not be read.

import type { RunConfig } from "./config.js";
import { describeEndpoint, isInsecure, type Endpoint } from "./endpoint.js";

export interface RunCondition {
  kind: "insecure-skip-verify" | "no-oracle" | "plaintext-credentials" | "version-unknown" | "anchors-unread";
  /** A build name, "oracle", or "run". */
  side: string;
  detail: string;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

function sendsCredentials(ep: Endpoint): boolean {
  return ep.auth !== undefined || Object.keys(ep.headers ?? {}).length > 0;
}

function cleartextRemote(ep: Endpoint): boolean {
  const url = new URL(ep.url);
  return url.protocol === "http:" && !LOOPBACK.test(url.hostname) && sendsCredentials(ep);
}

export function runConditions(config: RunConfig): RunCondition[] {
  const out: RunCondition[] = [];
  const sides: { side: string; endpoints: (Endpoint | undefined)[] }[] = [
    ...config.builds.map((b) => ({ side: b.name, endpoints: [b.grpc, b.jsonrpc] })),
    ...(config.oracle ? [{ side: "oracle", endpoints: [config.oracle.jsonrpc] }] : []),
    ...Object.entries(config.nodeOracles ?? {}).map(([name, o]) => ({ side: `oracle:${name}`, endpoints: [o.jsonrpc] })),
  ];
  for (const { side, endpoints } of sides) {
    for (const ep of endpoints) {
      if (!ep) continue;
      if (isInsecure(ep))
        out.push({
          kind: "insecure-skip-verify",
          side,
          detail: `TLS certificate verification is off for ${describeEndpoint(ep)}: its answers could come from anyone`,
        });
      if (cleartextRemote(ep))
        out.push({
          kind: "plaintext-credentials",
          side,
          detail: `credentials are sent unencrypted (plain http) to ${describeEndpoint(ep)}, which is not this machine`,
        });
    }
  }
  if (!config.oracle)
    out.push({
      kind: "no-oracle",
      side: "run",
      detail: "no oracle configured: cases anchored to the oracle are unjudged, and builds are measured only against each other",
    });
  return out;
}

/** A build with no version in the config whose server named no release. */
export function versionUnknownCondition(b: { name: string; implementation: string }, reported: string | undefined): RunCondition {
  const said = reported === undefined ? "reports no version" : `reports version ${JSON.stringify(reported)}, which names no release`;
  return {
    kind: "version-unknown",
    side: b.name,
    detail: `${said}: ledger entries about some versions of ${b.implementation} apply to it as to any version, and none is reported stale for it; set version: in the config to the release it runs`,
  };
}
