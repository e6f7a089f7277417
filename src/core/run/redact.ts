// Secrets never reach a reporter. Every event of a run is handed to the reporters as a
// copy in which each string has the config's secrets (passwords, tokens, cookie tokens,
// credential headers, and the authorization values built from them) masked, in every
// form they could take: as written, JSON-escaped, percent-encoded, base64 and hex. A
// server that echoes the credentials it was sent into an error message or an answer
// cannot carry them into the terminal, JSON, JUnit, HTML or golden files that way.
//
// The cost is paid only when the config holds secrets; answer bytes that contain a
// secret are shown with the mask in its place.

import { secretForms, redactForms } from "../targets/secrets.js";

export type Scrub = <T>(value: T) => T;

/** A deep copy of plain data with secrets masked in every string; identity without secrets. */
export function scrubber(secrets: readonly string[]): Scrub {
  const forms = secretForms(secrets);
  if (forms.length === 0) return <T>(value: T) => value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactForms(v, forms);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[redactForms(k, forms)] = walk(x);
    return out;
  };
  return <T>(value: T) => walk(value) as T;
}
