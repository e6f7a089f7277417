// Where a target lives and how to authenticate to it. Shared by the config loader and
// both clients, so neither client depends on YAML.

/**
 * How a call proves who it is.
 * - `basic`: HTTP Basic with a fixed user and password.
 * - `cookie`: Zebra cookie auth. The file holds `__cookie__:<token>` and is read at every
 *   call, because a restarted node writes a new token.
 * - `bearer`: `authorization: Bearer <token>` (API gateways in front of indexers).
 */
export type Auth =
  | { kind: "basic"; user: string; password: string; userInUrl?: boolean }
  | { kind: "cookie"; cookieFile: string }
  | { kind: "bearer"; token: string };

export interface TlsSettings {
  /** PEM file with the CA (or self-signed certificate) to trust, absolute path. */
  caFile?: string;
  /**
   * Accept any certificate. Exists for test networks only; callers must print a warning
   * whenever an endpoint with this flag is used.
   */
  insecureSkipVerify?: boolean;
  /** SNI and certificate name to check, when it differs from the URL's host. */
  serverName?: string;
}

export interface GrpcEndpoint extends TlsSettings {
  /** `http://` speaks h2c (cleartext HTTP/2), `https://` speaks HTTP/2 over TLS. No userinfo. */
  url: string;
  auth?: Auth;
  /** Extra metadata sent with every call (lower-case names). Values count as secrets. */
  headers?: Record<string, string>;
  /**
   * Header names and URL query keys whose values are not secret (lower-case), and
   * `url-user` when the user name written in the URL is not.
   */
  public?: string[];
}

export interface JsonRpcEndpoint extends TlsSettings {
  url: string;
  auth?: Auth;
  headers?: Record<string, string>;
  public?: string[];
}

export type Endpoint = GrpcEndpoint | JsonRpcEndpoint;

/** The endpoint's URL fit for logs and reports: no userinfo, never a credential. */
export function describeEndpoint(endpoint: Endpoint | string): string {
  const raw = typeof endpoint === "string" ? endpoint : endpoint.url;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL: show nothing that could be a credential.
    return raw.replace(/\/\/[^/@]*@/, "//");
  }
  url.username = "";
  url.password = "";
  // Gateways take API keys in the query string; a report never needs them.
  const hadQuery = url.search !== "";
  url.search = "";
  url.hash = "";
  let text = url.toString() + (hadQuery ? "?…" : "");
  // URL adds a "/" to a bare origin; keep what the user wrote.
  if (!hadQuery && !raw.endsWith("/") && text.endsWith("/") && url.pathname === "/") text = text.slice(0, -1);
  return text;
}

/** true when the endpoint disables certificate checks; for the caller's warning. */
export function isInsecure(endpoint: Endpoint): boolean {
  return endpoint.url.startsWith("https:") && endpoint.insecureSkipVerify === true;
}
