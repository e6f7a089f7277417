// An input file past every size limit that costs no disk: a sparse file larger than node
// reads at all. A read before the size check would fail in node's own words (the file is
// over 2 GiB, or over the longest string), so an error naming a limit of INPUT_LIMITS
// shows the size was checked before any byte was read.

import { closeSync, ftruncateSync, openSync } from "node:fs";

/** 2 GiB: one byte past the most fs.readFile reads (ERR_FS_FILE_TOO_LARGE). */
export const UNREADABLE_BYTES = 2 ** 31;

/** Makes `path` a sparse file of `size` bytes and returns it. */
export function sparseFile(path: string, size = UNREADABLE_BYTES): string {
  const fd = openSync(path, "w");
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** What every refusal of an oversized file says after its name. */
export const tooLarge = (what: string, limit: number, size = UNREADABLE_BYTES) => `${what} is ${size} bytes; the limit is ${limit}`;
