// What a fault means for the person running zconform: a short name for what happened
// and the fix, in one plain line. Read from the error codes and texts the clients keep
// in the detail (node's connect and TLS codes, undici's and http2's errors, the auth
// module's cookie message, the preflight's scheme probe), and else from the fault kind.

import type { Fault } from "./observation.js";

export interface FaultAdvice {
  /** What happened, in a few words ("unreachable", "certificate not trusted (self-signed)"). */
  what: string;
  /** What to do about it. */
  hint: string;
}

const has = (detail: string, ...needles: string[]) => needles.some((n) => detail.includes(n));

/** The fixes for a URL whose scheme is not what the server speaks. */
export const SPEAKS_TLS = "the server speaks TLS on this port";
const TLS_TO_PLAIN: FaultAdvice = {
  what: "https:// to a server that does not speak TLS on this port",
  hint: "use http:// in the URL, or the server's TLS port",
};
const PLAIN_TO_TLS: FaultAdvice = { what: "http:// to a server that speaks TLS", hint: "use https:// in the URL" };
export const NO_H2C = "the server does not answer HTTP/2 on this port";
const NOT_GRPC: FaultAdvice = { what: "not a gRPC server: it does not speak HTTP/2", hint: "check the port: it may be a JSON-RPC or web port" };

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
  // OpenSSL reading a plaintext answer as a TLS record.
  if (has(detail, "WRONG_VERSION_NUMBER", "wrong version number", "packet length too long", "PACKET_LENGTH_TOO_LONG")) return TLS_TO_PLAIN;
  // ALPN: a TLS server that offers neither HTTP/2 (gRPC) nor HTTP/1.1 (JSON-RPC) as asked.
  if (has(detail, "NO_APPLICATION_PROTOCOL", "no application protocol")) {
    return {
      what: "a TLS server that does not speak the HTTP version this transport needs (gRPC: HTTP/2, JSON-RPC: HTTP/1.1)",
      hint: "check the port: another service may be listening there",
    };
  }
  if (has(detail, "ERR_SSL_", "ERR_TLS_")) {
    return { what: "TLS handshake failed", hint: "check the URL's scheme: https:// speaks TLS, http:// does not" };
  }
  return undefined;
}

/** Causes the detail names whatever the fault's kind. */
function adviceFromDetail(d: string): FaultAdvice | undefined {
  if (has(d, "cannot read cookie file")) return { what: "cannot read cookie file", hint: "check cookieFile: is the node running, and is the path its cookie?" };
  if (has(d, "cannot read caFile")) return { what: "cannot read caFile", hint: "check the caFile path" };
  if (has(d, SPEAKS_TLS)) return PLAIN_TO_TLS;
  if (has(d, NO_H2C)) return NOT_GRPC;
  const tls = tlsAdvice(d);
  if (tls) return tls;
  if (has(d, "ENOTFOUND", "EAI_AGAIN")) return { what: "host not found", hint: "check the host name in the URL" };
  if (has(d, "EHOSTUNREACH", "ENETUNREACH")) return { what: "unreachable (no route)", hint: "check the address and the network" };
  if (has(d, "(client deadline)")) return { what: "no answer in time", hint: "is the server stuck or still syncing? raise deadlineMs if it is only slow" };
  if (/HTTP status 40[13]\b/.test(d))
    return { what: `credentials rejected (${/HTTP status (40[13])/.exec(d)![1]})`, hint: "check user/password, bearerToken or cookieFile" };
  // Zebra closes the connection on a missing or wrong cookie (the JSON-RPC client says so).
  if (has(d, "connection closed with no reply") && has(d, "cookie")) {
    return {
      what: "connection closed with no reply",
      hint: "check the credentials: Zebra does this for a wrong or missing cookie (cookieFile must be the node's current cookie)",
    };
  }
  // http2 on a port that answered in HTTP/1 (a JSON-RPC or web port).
  if (has(d, "may not speak HTTP/2")) return NOT_GRPC;
  // undici reading HTTP/2 frames where it expected an HTTP/1.1 answer (a gRPC port).
  if (has(d, "does not match the HTTP/1.1 protocol"))
    return { what: "not a JSON-RPC server: it does not answer HTTP/1.1", hint: "check the port: it may be a gRPC port" };
  const contentType = /^content-type .*, expected application\/(grpc|json)$/.exec(d);
  if (contentType)
    return {
      what: `something that is not ${contentType[1] === "grpc" ? "gRPC" : "JSON-RPC"} answers`,
      hint: "check the URL's port and path: another service may be answering",
    };
  return undefined;
}

function adviceFromKind(f: Fault): FaultAdvice {
  switch (f.kind) {
    case "unreachable":
      return { what: "unreachable", hint: "is the server running?" };
    case "timeout":
      return { what: "no answer in time", hint: "is the server stuck or still syncing? raise deadlineMs if it is only slow" };
    case "empty-body":
      return { what: "empty answer", hint: "check that the URL is the server's JSON-RPC endpoint" };
    case "http-status":
      return { what: "HTTP error status", hint: "check the URL: a proxy or another service may be answering" };
    case "reset":
      return { what: "connection lost", hint: "check the server's logs" };
    case "content-type":
      return { what: "not a gRPC or JSON-RPC answer", hint: "check the URL: another service may be answering" };
    case "protocol":
      return { what: "not the expected protocol", hint: "check the URL and scheme (http:// is h2c gRPC, https:// is TLS)" };
    case "too-large":
      return { what: "answer over maxMessageBytes", hint: "raise maxMessageBytes if the answer is legitimate" };
    case "too-long":
      return { what: "stream over maxStreamMessages", hint: "raise maxStreamMessages if the stream is legitimate" };
    default:
      return { what: `broken answer (${f.kind})`, hint: "the server broke the protocol; see the JSON report for the bytes" };
  }
}

export function adviceFor(f: Fault): FaultAdvice {
  // A too-large or broken answer says nothing about credentials or schemes, whatever its text holds.
  const specific = f.kind === "too-large" || f.kind === "too-long" || f.kind === "invalid-json" ? undefined : adviceFromDetail(f.detail);
  return specific ?? adviceFromKind(f);
}

/** Advice for a failure known only by its text (the preflight keeps no fault kind); undefined when the text names no cause. */
export function adviceForDetail(detail: string): FaultAdvice | undefined {
  return adviceFromDetail(detail);
}

/**
 * A fault's detail as a line shows it: an OpenSSL error string keeps its reason
 * ("ERR_SSL_WRONG_VERSION_NUMBER: wrong version number"), not its address and source
 * file; the JSON report keeps the whole text.
 */
export function plainDetail(detail: string): string {
  return detail.replace(/[0-9A-F]{8,}:error:[0-9A-F]+:[^:]*:[^:]*:([^:\n]+):\S*(?:\s*SSL alert number \d+)?\n?/g, "$1").trim();
}
