// TLS options for both clients. Verification is on unless the endpoint says
// insecureSkipVerify. With a CA file, node trusts exactly the certificates in it instead
// of its built-in store, which is what a deployment with its own CA (or a self-signed
// certificate) wants.

import { INPUT_LIMITS, InputTooLargeError, readInputBytes } from "../io/input-limits.js";
import type { TlsSettings } from "./endpoint.js";

export interface NodeTlsOptions {
  ca?: Buffer;
  rejectUnauthorized: boolean;
  servername?: string;
}

/** Throws with the file name when the CA file cannot be read or is over its size limit. */
export function nodeTlsOptions(tls: TlsSettings): NodeTlsOptions {
  const out: NodeTlsOptions = { rejectUnauthorized: tls.insecureSkipVerify !== true };
  if (tls.caFile) {
    try {
      out.ca = readInputBytes(tls.caFile, INPUT_LIMITS.caFileBytes, "the CA file");
    } catch (e) {
      throw new Error(`cannot read caFile ${tls.caFile}: ${e instanceof InputTooLargeError ? e.reason : (e as Error).message}`);
    }
  }
  if (tls.serverName) out.servername = tls.serverName;
  return out;
}

const TLS_ERROR_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_TLS_HANDSHAKE_TIMEOUT",
]);

/** true for errors raised while setting up TLS (certificate checks, handshake). */
export function isTlsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return TLS_ERROR_CODES.has(code) || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_");
}
