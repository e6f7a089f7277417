// Turning an Auth into the header value sent on the wire.

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
 * The `authorization` value for one call. Reads a cookie file anew each time; throws
 * with a message naming the file when it cannot be read (a stopped Zebra deletes it) or
 * is over its size limit.
 */
export async function authorizationFor(auth: Auth | undefined): Promise<string | undefined> {
  if (!auth) return undefined;
  switch (auth.kind) {
    case "basic":
      return basicHeader(auth.user, auth.password);
    case "bearer":
      return `Bearer ${auth.token}`;
    case "cookie": {
      let text: string;
      try {
        text = await readInputTextAsync(auth.cookieFile, INPUT_LIMITS.cookieFileBytes, "the cookie file");
      } catch (e) {
        throw new Error(`cannot read cookie file ${auth.cookieFile}: ${e instanceof InputTooLargeError ? e.reason : (e as Error).message}`);
      }
      return basicHeader(COOKIE_USER, cookieToken(text));
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
