// Results stay small whatever a server answers. An answer above a size is kept as its
// length, its SHA-256 and a head and a tail (as hex), not as its whole bytes: a run holds
// every result until the end, and a report turns bytes into hex and JSON, so a dozen
// 16 MiB answers would otherwise cost gigabytes. Asked to, the whole bytes go to a file
// named by their hash. Any other string of a result (a divergence's value, a patch, a
// server's message) is cut the same way above its own limit.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomic-write.js";

export interface Keeping {
  /** Answers up to this many bytes are kept whole. */
  inlineBytes: number;
  /** Bytes shown from each end of a larger answer. */
  edgeBytes: number;
  /** Strings longer than this are cut to a head and tail. */
  maxStringChars: number;
  /** Operations kept of one JSON Patch; the rest are counted. */
  maxPatchOps: number;
  /** When set, the whole bytes of each elided answer are written here. */
  spillDir?: string;
  /**
   * The run's secrets masked, applied to a whole answer or string before it is cut, so
   * that a secret straddling a cut is masked whole instead of left as two halves that
   * neither match the mask. Costs one pass over each elided answer when the run has secrets.
   */
  maskBytes?: (bytes: Buffer) => Buffer;
  maskText?: (text: string) => string;
}

export const DEFAULT_KEEPING: Keeping = { inlineBytes: 1024 * 1024, edgeBytes: 4096, maxStringChars: 64 * 1024, maxPatchOps: 1000 };

/** What is kept of an answer too large to keep whole. */
export interface Elided {
  /** Length of the whole answer: all messages one after the other, or the body. */
  bytes: number;
  sha256: string;
  /** The first and last edgeBytes, as hex. */
  head: string;
  tail: string;
  /** Where the whole bytes were written, when asked (named by the hash of what was received). */
  file?: string;
}

export function totalBytes(parts: readonly Uint8Array[]): number {
  return parts.reduce((n, p) => n + p.length, 0);
}

export function elide(parts: readonly Uint8Array[], keep: Keeping): Elided {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  const sha256 = hash.digest("hex");
  const bytes = totalBytes(parts);
  const shown = keep.maskBytes ? [keep.maskBytes(Buffer.concat(parts))] : parts;
  const shownBytes = totalBytes(shown);
  const out: Elided = {
    bytes,
    sha256,
    head: Buffer.from(slice(shown, 0, Math.min(keep.edgeBytes, shownBytes))).toString("hex"),
    tail: Buffer.from(slice(shown, Math.max(0, shownBytes - keep.edgeBytes), shownBytes)).toString("hex"),
  };
  if (keep.spillDir !== undefined) {
    const file = join(keep.spillDir, `${sha256}.bin`);
    writeFileAtomic(file, Buffer.concat(shown));
    out.file = file;
  }
  return out;
}

/** Bytes [from, to) of the parts laid end to end, without joining them all. */
function slice(parts: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const out = new Uint8Array(to - from);
  let at = 0;
  for (const p of parts) {
    const start = Math.max(from - at, 0);
    const end = Math.min(to - at, p.length);
    if (start < end) out.set(p.subarray(start, end), at + start - from);
    at += p.length;
    if (at >= to) break;
  }
  return out;
}

/** A long string as its head, its length and hash (of the string as received), and its tail. */
export function cutString(s: string, keep: Keeping): string {
  if (s.length <= keep.maxStringChars) return s;
  const edge = Math.floor(keep.maxStringChars / 4);
  const sha = createHash("sha256").update(s).digest("hex");
  const shown = keep.maskText ? keep.maskText(s) : s;
  return `${shown.slice(0, edge)}…[${s.length} characters, sha256 ${sha}]…${shown.slice(-edge)}`;
}

/** A copy of plain data with every string over the limit cut; the same object when none is. */
export function boundStrings<T>(value: T, keep: Keeping): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return cutString(v, keep);
    if (Array.isArray(v)) {
      const mapped = v.map(walk);
      return mapped.every((x, i) => x === v[i]) ? v : mapped;
    }
    if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return v;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = walk(x);
      if (out[k] !== x) changed = true;
    }
    return changed ? out : v;
  };
  return walk(value) as T;
}

/** A patch with its operations beyond the limit dropped and counted. */
export function boundPatch<P extends { ops: unknown[] }>(patch: P, keep: Keeping): P & { omittedOps?: number } {
  if (patch.ops.length <= keep.maxPatchOps) return patch;
  return { ...patch, ops: patch.ops.slice(0, keep.maxPatchOps), omittedOps: patch.ops.length - keep.maxPatchOps };
}
