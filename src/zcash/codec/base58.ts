// Base58 and Base58Check (4-byte SHA256d checksum), as transparent addresses use.
import { sha256d } from "./hash.js";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export class Base58Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Base58Error";
  }
}

export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Base-256 to base-58 by repeated division over a little-endian digit array.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = "1".repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}

export function base58Decode(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? INDEX[c]! : -1;
    if (v < 0) throw new Base58Error(`bad character ${JSON.stringify(text[i])} at position ${i} (not in the base58 alphabet)`);
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i]!;
  return out;
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
