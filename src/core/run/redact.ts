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
import { mapStrings } from "../results/map-strings.js";

export type Scrub = <T>(value: T) => T;

// The same long strings (answers as hex, canonical forms) reach the scrubber again and
// again, in one event after another: over the shipped corpus's demo, 947 distinct
// strings of more than 200 characters were scrubbed 23,000 times, 85% of all the text
// searched. Their results are remembered, up to a bound on the characters held.
const REMEMBER_FROM_CHARS = 256;
const REMEMBER_AT_MOST_CHARS = 16 * 1024 * 1024;

/** A deep copy of plain data with secrets masked in every string; identity without secrets. */
export function scrubber(secrets: readonly string[]): Scrub {
  const forms = secretForms(secrets);
  if (forms.length === 0) return <T>(value: T) => value;
  const remembered = new Map<string, string>();
  let rememberedChars = 0;
  const text = (s: string): string => {
    if (s.length < REMEMBER_FROM_CHARS) return redactForms(s, forms);
    let r = remembered.get(s);
    if (r === undefined) {
      r = redactForms(s, forms);
      if (rememberedChars + s.length > REMEMBER_AT_MOST_CHARS) {
        remembered.clear();
        rememberedChars = 0;
      }
      remembered.set(s, r);
      rememberedChars += s.length;
    }
    return r;
  };
  return <T>(value: T) => mapStrings(value, text);
}
