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
 * Encoded forms are only looked for from this length on: the hex or base64 of a shorter
 * secret is short enough to turn up by chance in the hex and base64 of answers.
 */
export const MIN_ENCODED_SECRET_LENGTH = 8;

const MASK = "***";
const MASK_HEX = Buffer.from(MASK).toString("hex");

/** Each form a secret may take in output, with what replaces it, longest first. */
export function secretForms(secrets: readonly string[]): [form: string, mask: string][] {
  const forms = new Map<string, string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    forms.set(s, MASK);
    forms.set(JSON.stringify(s).slice(1, -1), MASK);
    forms.set(encodeURIComponent(s), MASK);
    if (s.length < MIN_ENCODED_SECRET_LENGTH) continue;
    // Answers are shown as hex and bytes fields as base64: a server that echoes a
    // credential into its answer must not put it in a report that way either. The hex
    // form becomes the hex of the mask, so the hex stays hex.
    const bytes = Buffer.from(s, "utf8");
    forms.set(bytes.toString("hex"), MASK_HEX);
    forms.set(bytes.toString("base64"), MASK);
    forms.set(bytes.toString("base64").replace(/=+$/, ""), MASK);
    forms.set(bytes.toString("base64url"), MASK);
  }
  return [...forms].filter(([f]) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b[0].length - a[0].length);
}

/**
 * `text` with every secret replaced by `***`, also where the secret appears escaped as a
 * JSON string, percent-encoded in a URL, or (for secrets of 8 characters and more) as
 * base64 or hex. Longest forms go first so that one secret containing another is
 * replaced whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  return redactForms(text, secretForms(secrets));
}

/** redact() with the forms computed once, for callers that redact many strings. */
export function redactForms(text: string, forms: readonly [string, string][]): string {
  let out = text;
  for (const [f, mask] of forms) if (out.includes(f)) out = out.split(f).join(mask);
  return out;
}
