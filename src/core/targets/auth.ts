// Turning an Auth into the header value sent on the wire.

import { statSync } from "node:fs";
import { INPUT_LIMITS, InputTooLargeError, readInputText, readInputTextAsync } from "../io/input-limits.js";
import type { Auth } from "./endpoint.js";

/** The user Zebra's cookie auth expects; Zebra only checks the part after the first ':'. */
export const COOKIE_USER = "__cookie__";

/** The token of a Zebra cookie file's text (`__cookie__:<token>`, no trailing newline). */
export function cookieToken(text: string): string {
  const trimmed = text.replace(/[\r\n]+$/, "");
  const colon = trimmed.indexOf(":");
  return colon < 0 ? trimmed : trimmed.slice(colon + 1);
}

export function basicHeader(user: string, password: string): string {
  return "Basic " + Buffer.from(`${user}:${password}`, "utf8").toString("base64");
}

/**
 * The header last made from each cookie file, beside the file's stamp then. A node writes
 * a new cookie when it restarts, so the file is watched on every call; reading it on every
 * call instead cost a run a tenth of its CPU (open, stat, read and close on each JSON-RPC
 * call), so it is read again only when its stamp changed.
 */
const cookieHeaders = new Map<string, { stamp: string; header: string }>();

/**
 * What changes when a file is rewritten or replaced (a rewrite of the same size within one
 * tick of the file system's clock keeps it: no node restarts that fast); undefined when it
 * cannot be stat'ed (the read then says why).
 */
function stampOf(file: string): string | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * The `authorization` value for one call. A cookie file is read again whenever it changed
 * since the last call; throws with a message naming the file when it cannot be read (a
 * stopped Zebra deletes it) or is over its size limit.
 */
export async function authorizationFor(auth: Auth | undefined): Promise<string | undefined> {
  if (!auth) return undefined;
  switch (auth.kind) {
    case "basic":
      return basicHeader(auth.user, auth.password);
    case "bearer":
      return `Bearer ${auth.token}`;
    case "cookie": {
      const stamp = stampOf(auth.cookieFile);
      const known = cookieHeaders.get(auth.cookieFile);
      if (stamp !== undefined && known?.stamp === stamp) return known.header;
      cookieHeaders.delete(auth.cookieFile);
      let text: string;
      try {
        text = await readInputTextAsync(auth.cookieFile, INPUT_LIMITS.cookieFileBytes, "the cookie file");
      } catch (e) {
        throw new Error(`cannot read cookie file ${auth.cookieFile}: ${e instanceof InputTooLargeError ? e.reason : (e as Error).message}`);
      }
      const header = basicHeader(COOKIE_USER, cookieToken(text));
      // A file rewritten between the stamp and the read is stamped anew on the next call.
      if (stamp !== undefined) cookieHeaders.set(auth.cookieFile, { stamp, header });
      return header;
    }
  }
}

/** Synchronous best effort for secret collection: undefined when the file is absent or too large to be used. */
export function tryReadCookieToken(file: string): string | undefined {
  try {
    return cookieToken(readInputText(file, INPUT_LIMITS.cookieFileBytes, "the cookie file"));
  } catch {
    return undefined;
  }
}
