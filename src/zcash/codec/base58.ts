// Base58 and Base58Check (4-byte SHA256d checksum), as transparent addresses use. The
// base conversion is @scure/base's; the errors are ours, so that an address's rejection
// can say which character, or that the checksum or the length is wrong.
import { base58 } from "@scure/base";
import { sha256d } from "./hash.js";

const NOT_BASE58 = /[^1-9A-HJ-NP-Za-km-z]/;
/** @scure/base refuses longer text (base conversion is quadratic); an address is 35 characters. */
const MAX_CHARS = 4096;

export class Base58Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Base58Error";
  }
}

export function base58Encode(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

export function base58Decode(text: string): Uint8Array {
  const bad = text.search(NOT_BASE58);
  if (bad >= 0) throw new Base58Error(`bad character ${JSON.stringify(text[bad])} at position ${bad} (not in the base58 alphabet)`);
  if (text.length > MAX_CHARS) throw new Base58Error(`too long to decode (${text.length} characters, at most ${MAX_CHARS})`);
  return base58.decode(text);
}

export function base58CheckEncode(payload: Uint8Array): string {
  const sum = sha256d(payload).subarray(0, 4);
  const full = new Uint8Array(payload.length + 4);
  full.set(payload);
  full.set(sum, payload.length);
  return base58Encode(full);
}

/** Decodes and verifies the checksum; returns the payload without it. */
export function base58CheckDecode(text: string): Uint8Array {
  const full = base58Decode(text);
  if (full.length < 4) throw new Base58Error(`too short for base58check (${full.length} bytes)`);
  const payload = full.subarray(0, full.length - 4);
  const sum = sha256d(payload);
  for (let i = 0; i < 4; i++) {
    if (sum[i] !== full[payload.length + i]) throw new Base58Error("bad checksum");
  }
  return payload;
}
