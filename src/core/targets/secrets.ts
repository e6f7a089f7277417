// Secrets a run knows, so that reports, logs and error messages can be scrubbed of them.

import { basicHeader, COOKIE_USER, tryReadCookieToken } from "./auth.js";
import type { Auth, Endpoint } from "./endpoint.js";

/** Shorter values cannot be told apart from ordinary text, so they are not redacted. */
export const MIN_SECRET_LENGTH = 4;

interface HasEndpoints {
  oracle?: { jsonrpc: Endpoint };
  nodeOracles?: Record<string, { jsonrpc: Endpoint }>;
  builds: { grpc?: Endpoint; jsonrpc?: Endpoint }[];
}

/** The `public` entry that marks the user name written in an endpoint's URL as not secret. */
export const PUBLIC_URL_USER = "url-user";

/**
 * Every password, bearer token, readable cookie token and the authorization header values
 * built from them, every configured header value, the user name written in an endpoint's
 * URL and every value in its query, unless the endpoint marks the header name, query key
 * or `url-user` public. Cookie files are read now; a token written later (node restart) is
 * not included.
 */
export function secretsOf(config: HasEndpoints): string[] {
  const out = new Set<string>();
  const endpoints: (Endpoint | undefined)[] = [config.oracle?.jsonrpc, ...Object.values(config.nodeOracles ?? {}).map((o) => o.jsonrpc)];
  for (const b of config.builds) endpoints.push(b.grpc, b.jsonrpc);
  for (const e of endpoints) {
    if (!e) continue;
    const open = new Set(e.public ?? []);
    if (e.auth) for (const s of authSecrets(e.auth)) out.add(s);
    if (e.auth?.kind === "basic" && e.auth.userInUrl && !open.has(PUBLIC_URL_USER)) out.add(e.auth.user);
    for (const [name, value] of Object.entries(e.headers ?? {})) {
      if (!open.has(name.toLowerCase())) out.add(value);
    }
    for (const [key, value] of queryOf(e.url)) {
      if (!open.has(key.toLowerCase())) out.add(value);
    }
  }
  return [...out].filter((s) => s.length >= MIN_SECRET_LENGTH);
}

function queryOf(url: string): [string, string][] {
  try {
    return [...new URL(url).searchParams];
  } catch {
    return [];
  }
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

/**
 * The spellings a secret takes in text: as written, escaped in a JSON string (only what
 * must be, or every character as \\uXXXX in either case), and percent-encoded.
 */
function textForms(s: string): string[] {
  const u = s
    .split("")
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("");
  return [s, JSON.stringify(s).slice(1, -1), u, u.toUpperCase().replaceAll("\\U", "\\u"), encodeURIComponent(s)];
}

/**
 * The part of the base64 of some bytes that depends only on `bytes`, when they start at
 * offset `align` (0, 1 or 2) within a group of three: whatever surrounds them, these
 * characters appear in the base64 of the whole.
 */
export function base64Core(bytes: Uint8Array, align: number): string {
  const padded = Buffer.concat([Buffer.alloc(align), bytes]);
  const b64 = padded.toString("base64");
  const first = [0, 2, 3][align]!;
  const last = Math.floor((padded.length * 8) / 6);
  return b64.slice(first, last);
}

/** Each form a secret may take in output, with what replaces it, longest first. */
export function secretForms(secrets: readonly string[]): [form: string, mask: string][] {
  const forms = new Map<string, string>();
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    const texts = textForms(s);
    for (const t of texts) forms.set(t, MASK);
    if (s.length < MIN_ENCODED_SECRET_LENGTH) continue;
    // Answers are shown as hex and bytes fields as base64: a server that echoes a
    // credential into its answer must not put it in a report that way either. Raw bodies
    // are hex, so every text spelling is looked for as hex of either case; decoded bytes
    // fields are base64, so the secret's own bytes are looked for as base64 at any byte
    // offset. The hex form becomes the hex of the mask, so the hex stays hex.
    for (const t of texts) {
      const hex = Buffer.from(t, "utf8").toString("hex");
      forms.set(hex, MASK_HEX);
      forms.set(hex.toUpperCase(), MASK_HEX);
    }
    const bytes = Buffer.from(s, "utf8");
    forms.set(bytes.toString("base64"), MASK);
    forms.set(bytes.toString("base64").replace(/=+$/, ""), MASK);
    forms.set(bytes.toString("base64url"), MASK);
    for (const align of [0, 1, 2]) {
      const core = base64Core(bytes, align);
      forms.set(core, MASK);
      forms.set(core.replaceAll("+", "-").replaceAll("/", "_"), MASK);
    }
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

interface FormIndex {
  all: readonly [string, string][];
  /** The forms a text of only lower-case (upper-case) hex digits can hold. */
  lowerHex: readonly [string, string][];
  upperHex: readonly [string, string][];
  /** The forms a text of only base64 (or base64url) characters can hold. */
  base64: readonly [string, string][];
  shortest: number;
}

const indexes = new WeakMap<readonly [string, string][], FormIndex>();
const LOWER_HEX = /^[0-9a-f]*$/;
const UPPER_HEX = /^[0-9A-F]*$/;
const BASE64 = /^[A-Za-z0-9+/=_-]*$/;

function indexOf(forms: readonly [string, string][]): FormIndex {
  let index = indexes.get(forms);
  if (!index) {
    index = {
      all: forms,
      lowerHex: forms.filter(([f]) => LOWER_HEX.test(f)),
      upperHex: forms.filter(([f]) => UPPER_HEX.test(f)),
      base64: forms.filter(([f]) => BASE64.test(f)),
      shortest: forms.reduce((n, [f]) => Math.min(n, f.length), Infinity),
    };
    indexes.set(forms, index);
  }
  return index;
}

/**
 * redact() with the forms computed once, for callers that redact many strings. Most of
 * a report's text is answers as hex and bytes as base64: such a text is only searched
 * for the forms written in its alphabet, and never for forms longer than itself.
 */
export function redactForms(text: string, forms: readonly [string, string][]): string {
  if (forms.length === 0) return text;
  const index = indexOf(forms);
  if (text.length < index.shortest) return text;
  const candidates = LOWER_HEX.test(text) ? index.lowerHex : UPPER_HEX.test(text) ? index.upperHex : BASE64.test(text) ? index.base64 : index.all;
  let out = text;
  // Forms are longest first: skip those longer than the text (masking only shortens it).
  for (let i = firstFitting(candidates, text.length); i < candidates.length; i++) {
    const [f, mask] = candidates[i]!;
    if (out.includes(f)) out = out.split(f).join(mask);
  }
  return out;
}

/** The first form, in a list sorted longest first, no longer than `length`. */
function firstFitting(forms: readonly [string, string][], length: number): number {
  let lo = 0;
  let hi = forms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (forms[mid]![0].length > length) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `bytes` with every form of every secret, as UTF-8 bytes, replaced by its mask. */
export function redactBytes(bytes: Buffer, forms: readonly [string, string][]): Buffer {
  let out = bytes;
  for (const [f, mask] of forms) {
    const needle = Buffer.from(f, "utf8");
    if (out.indexOf(needle) < 0) continue;
    const pieces: Buffer[] = [];
    let at = 0;
    for (let i = out.indexOf(needle); i >= 0; i = out.indexOf(needle, at)) {
      pieces.push(out.subarray(at, i), Buffer.from(mask, "utf8"));
      at = i + needle.length;
    }
    pieces.push(out.subarray(at));
    out = Buffer.concat(pieces);
  }
  return out;
}
