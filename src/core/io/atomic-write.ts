// Files are written whole or not at all, and survive a crash once written: a temporary
// file beside the target, fsync'd, renamed over the target, and the folder fsync'd so the
// rename itself is on disk. A large file is written part by part, so its size is limited
// by the disk rather than by the longest string JavaScript can hold. A run killed in the
// middle of a write leaves its temporary file behind; removeStaleTemps takes those away
// at the next start.

import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

let counter = 0;

const TEMP = /^\.(.+)\.(\d+)\.\d+\.tmp$/;

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  writeFileAtomicParts(path, [data]);
}

/** Writes each part in turn; nothing is visible at `path` until every part is on disk. */
export function writeFileAtomicParts(path: string, parts: Iterable<string | Uint8Array>): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "w");
    for (const part of parts) {
      const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
    syncFolder(dir);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Why a write failed, in words a reader acts on: "no space left on device (ENOSPC)"; the
 * file a folder operation failed on is named ("file already exists (EEXIST: mkdir /x)"
 * when a folder on the way is a file), the file being written is the caller's to name.
 */
export function writeErrorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const message = typeof err?.message === "string" ? err.message : String(e);
  if (typeof err?.code !== "string") return message;
  // node: "ENOSPC: no space left on device, write" or "EEXIST: file already exists, mkdir '/x'"
  const words = message.startsWith(`${err.code}: `) ? message.slice(err.code.length + 2).replace(/, \w+(?: '.*')?$/, "") : message;
  return `${words} (${err.code}${err.syscall === "mkdir" && err.path ? `: mkdir ${err.path}` : ""})`;
}

function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a folder; the file itself is on disk.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Removes the temporary files that writes to `targets` left when their process died.
 * A temporary file of a process that is still alive (another run writing beside this
 * one) is left alone. Returns the files removed.
 */
export function removeStaleTemps(targets: readonly string[]): string[] {
  const removed: string[] = [];
  const byDir = new Map<string, Set<string>>();
  for (const t of targets) {
    const names = byDir.get(dirname(t)) ?? new Set<string>();
    names.add(basename(t));
    byDir.set(dirname(t), names);
  }
  for (const [dir, names] of byDir) {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const m = TEMP.exec(entry);
      if (!m || !names.has(m[1]!) || alive(Number(m[2]))) continue;
      const file = join(dir, entry);
      try {
        if (statSync(file).isFile()) {
          rmSync(file, { force: true });
          removed.push(file);
        }
      } catch {
        // gone already
      }
    }
  }
  return removed;
}

/** removeStaleTemps for every file under `root` (a golden folder), at any depth. */
export function removeStaleTempsUnder(root: string): string[] {
  const removed: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const file = join(dir, e.name);
      if (e.isDirectory()) pending.push(file);
      else if (e.isFile()) {
        const m = TEMP.exec(e.name);
        if (m && !alive(Number(m[2]))) {
          rmSync(file, { force: true });
          removed.push(file);
        }
      }
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
