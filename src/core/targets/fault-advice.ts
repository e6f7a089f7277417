// What a fault means for the person running zconform: a short name for what happened
// and what to try. Read from the fault kinds and the error codes the clients keep in
// the detail (node's connect and TLS codes, the auth module's cookie message).

import type { Fault } from "./observation.js";

export interface FaultAdvice {
  /** What happened, in a few words ("unreachable", "certificate not trusted (self-signed)"). */
  what: string;
  /** What to do about it. */
  hint: string;
}

const has = (detail: string, ...needles: string[]) => needles.some((n) => detail.includes(n));

function tlsAdvice(detail: string): FaultAdvice | undefined {
  if (has(detail, "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "self-signed certificate", "self signed certificate")) {
    return { what: "certificate not trusted (self-signed)", hint: "pass caFile or fix the certificate" };
  }
  if (has(detail, "CERT_HAS_EXPIRED", "certificate has expired")) return { what: "certificate expired", hint: "renew the server's certificate" };
  if (has(detail, "ERR_TLS_CERT_ALTNAME_INVALID", "does not match certificate")) {
    return { what: "certificate is for another host name", hint: "set serverName to the certificate's name or fix the URL" };
  }
  if (has(detail, "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT", "CERT_UNTRUSTED", "unable to verify")) {
    return { what: "certificate not trusted (unknown issuer)", hint: "pass caFile or fix the certificate chain" };
  }
  if (has(detail, "ERR_SSL_", "wrong version number", "ERR_TLS_")) {
    return { what: "TLS handshake failed", hint: "check the URL's scheme: https:// speaks TLS, http:// does not" };
  }
  return undefined;
}

export function adviceFor(f: Fault): FaultAdvice {
  const d = f.detail;
  switch (f.kind) {
    case "unreachable": {
      if (has(d, "cannot read cookie file")) return { what: "cannot read cookie file", hint: "check cookieFile: is the node running, and is the path its cookie?" };
      if (has(d, "cannot read caFile")) return { what: "cannot read caFile", hint: "check the caFile path" };
      const tls = tlsAdvice(d);
      if (tls) return tls;
      if (has(d, "ENOTFOUND", "EAI_AGAIN")) return { what: "host not found", hint: "check the host name in the URL" };
      if (has(d, "EHOSTUNREACH", "ENETUNREACH")) return { what: "unreachable (no route)", hint: "check the address and the network" };
      return { what: "unreachable", hint: "is the server running?" };
    }
    case "timeout": return { what: "no answer in time", hint: "is the server stuck or still syncing? raise deadlineMs if it is only slow" };
    case "empty-body":
      return has(d, "cookie")
        ? { what: "connection closed with no reply", hint: "check the credentials: Zebra does this for a missing or wrong cookie" }
        : { what: "empty answer", hint: "check that the URL is the server's JSON-RPC endpoint" };
    case "http-status":
      if (has(d, "401", "403")) return { what: "credentials rejected", hint: "check user/password, bearerToken or cookieFile" };
      return { what: "HTTP error status", hint: "check the URL: a proxy or another service may be answering" };
    case "reset": return { what: "connection lost", hint: "check the server's logs" };
    case "content-type": return { what: "not a gRPC or JSON-RPC answer", hint: "check the URL: another service may be answering" };
    case "protocol": return { what: "not the expected protocol", hint: "check the URL and scheme (http:// is h2c gRPC, https:// is TLS)" };
    case "too-large": return { what: "answer over maxMessageBytes", hint: "raise maxMessageBytes if the answer is legitimate" };
    case "too-long": return { what: "stream over maxStreamMessages", hint: "raise maxStreamMessages if the stream is legitimate" };
    default: return { what: `broken answer (${f.kind})`, hint: "the server broke the protocol; see the JSON report for the bytes" };
  }
}
