// Secrets a run knows, so that reports, logs and error messages can be scrubbed of them.

import { basicHeader, COOKIE_USER, tryReadCookieToken } from "./auth.js";
import type { Auth, Endpoint } from "./endpoint.js";

/** Shorter values cannot be told apart from ordinary text, so they are not redacted. */
export const MIN_SECRET_LENGTH = 4;

/** Header names whose configured values are credentials rather than plain settings. */
const SECRET_HEADER = /auth|token|key|secret|pass|cookie|session|signature|credential/i;

interface HasEndpoints {
  oracle?: { jsonrpc: Endpoint };
  builds: { grpc?: Endpoint; jsonrpc?: Endpoint }[];
}

/**
 * Every password, bearer token, readable cookie token and the authorization header values
 * built from them, plus configured header values whose names look like credentials.
 * Cookie files are read now; a token written later (node restart) is not included.
 */
export function secretsOf(config: HasEndpoints): string[] {
  const out = new Set<string>();
  const endpoints: (Endpoint | undefined)[] = [config.oracle?.jsonrpc];
  for (const b of config.builds) endpoints.push(b.grpc, b.jsonrpc);
  for (const e of endpoints) {
    if (!e) continue;
    if (e.auth) for (const s of authSecrets(e.auth)) out.add(s);
    for (const [name, value] of Object.entries(e.headers ?? {})) {
      if (SECRET_HEADER.test(name)) out.add(value);
    }
  }
  return [...out].filter((s) => s.length >= MIN_SECRET_LENGTH);
}

function authSecrets(auth: Auth): string[] {
  switch (auth.kind) {
    case "basic":
      return [auth.password, ...headerForms(basicHeader(auth.user, auth.password))];
    case "bearer":
      return [auth.token, `Bearer ${auth.token}`];
    case "cookie": {
      const token = tryReadCookieToken(auth.cookieFile);
      return token === undefined ? [] : [token, ...headerForms(basicHeader(COOKIE_USER, token))];
    }
  }
}

function headerForms(header: string): string[] {
  return [header, header.slice(header.indexOf(" ") + 1)];
}

/**
 * `text` with every secret replaced by `***`, also where the secret appears escaped as a
 * JSON string or percent-encoded in a URL. Longest secrets go first so that one secret
 * containing another is replaced whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  let out = text;
  for (const f of [...forms].sort((a, b) => b.length - a.length)) {
    if (f.length >= MIN_SECRET_LENGTH) out = out.split(f).join("***");
  }
  return out;
}
