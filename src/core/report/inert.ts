// Text a server sent, made safe to print on a terminal. A terminal obeys the control
// characters in what it prints: ESC ] 0 ; … BEL in a chain name retitles the window,
// ESC [ 2 J clears the screen, ESC ] 8 ; ; URL draws a link that says something else, a
// carriage return or a line feed starts a forged line ("could not check …"), and bidi
// overrides make a line read otherwise than it is. Each such character is printed as a
// visible escape (\x1b, \r, \u202e) instead: shown, never obeyed. HTML, JUnit and JSON
// have their own escaping; this is the terminal's.

import { mapStrings } from "../results/map-strings.js";

// C0, DEL and C1 controls; the bidi marks, embeddings, overrides and isolates; the
// Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, "g");
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeControl(ch: string): string {
  const code = ch.charCodeAt(0);
  return NAMED[ch] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
}

/** One value as the terminal shows it: every control character escaped, line feeds included. */
export function inert(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, escapeControl) : text;
}

/** A copy of plain data with `inert` applied to every string, keys included. */
export function inertDeep<T>(value: T): T {
  return mapStrings(value, inert);
}

// zconform's own colours: SGR sequences, ESC [ parameters m.
const STYLED = new RegExp(`\\x1b\\[[0-9;]*m|${CONTROL.source}`, "g");

/**
 * The last guard before the terminal, for lines of zconform's own making (which may hold
 * several lines, and colours when `colours`): line feeds stay, and with `colours` the
 * SGR sequences chalk writes; every other control character is escaped. Values a server
 * sent are `inert` before they are put into a line; this catches any that were not.
 */
export function inertLines(text: string, o: { colours: boolean }): string {
  return CONTROL.test(text) ? text.replace(STYLED, (m) => (m === "\n" || (o.colours && m.length > 1) ? m : m.replace(CONTROLS, escapeControl))) : text;
}
