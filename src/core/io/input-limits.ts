// Limits on every file zconform reads whole (the config's is in targets/), so that a
// hostile or mistaken file ends in an error naming it and its limit, and exit 2 (or a
// fault of the build whose CA or cookie file it is), instead of exhausting memory, the
// stack or the user's patience. Each file's size is that of the open file, checked
// before a byte is read; a missing file fails as node's own read would, with its words.

import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { constants } from "node:buffer";
import { ProblemsError } from "./located-yaml.js";

const KiB = 1024;
const MiB = 1024 * KiB;

export const INPUT_LIMITS = {
  /** One cases/<transport>/<method>.yaml file. The real corpus's largest is a few tens of kilobytes. */
  caseFileBytes: 4 * MiB,
  /** cases/quirks.yaml. */
  ledgerBytes: 4 * MiB,
  /** One cases/chains/<name>.yaml file. */
  chainProfileBytes: 1 * MiB,
  /** Cases in one file. */
  casesPerFile: 10_000,
  /**
   * One golden answer file: a whole call (maxCallBytes, 64 MiB by default) as hex, with
   * room for its JSON. The committed goldens are below 1 MiB each.
   */
  goldenBytes: 160 * MiB,
  /**
   * A golden folder's RECORDED.json: a few lines per recording and every case id once.
   * The committed ones are below 20 KB; this holds hundreds of thousands of case ids.
   */
  provenanceBytes: 16 * MiB,
  /**
   * A JSON report read back (`zconform merge`, readJsonReport). It is parsed from one
   * string, so a longer one could not be read at all: the longest string node makes
   * (about 512 MiB). Reports keep answers over 1 MiB elided and each body once.
   */
  reportBytes: constants.MAX_STRING_LENGTH,
  /**
   * A file of raw blocks (`decode`, `--chain`, a darkside chain, a regtest replay's
   * blocks.txt) or raw transactions (its mempool.txt), as hex lines or one binary
   * block. The largest in ../shared/chain-data is a 1.9 MB binary block (a block is at
   * most 2 MB) and the committed regtest chain is 1 MB of hex: this is over a hundred
   * times either, and half the longest string node makes, which hex text must fit in.
   */
  blockFileBytes: 256 * MiB,
  /** A regtest replay's regtest.json: activation heights and the wallet's transactions (the committed one is 6 KB). */
  replayDocumentBytes: 16 * MiB,
  /** A wallet-sdk checkpoint (a block hash and its tree states): the ones in chain-data are below 3 KB. */
  checkpointBytes: 1 * MiB,
  /** real-servers.yaml: a few lines per pinned server (the committed one is about 1 KB). */
  pinsBytes: 1 * MiB,
  /** A build's caFile, PEM: the whole Mozilla store a system trusts is about 220 KB. */
  caFileBytes: 4 * MiB,
  /** A node's cookie file, `__cookie__:<token>` (Zebra's is under 100 bytes), read anew for every call. */
  cookieFileBytes: 64 * KiB,
} as const;

/** A file larger than the limit of its kind; `reason` says so without the file's name, for messages that name it already. */
export class InputTooLargeError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = "InputTooLargeError";
  }
}

const tooLarge = (path: string, what: string, size: number, maxBytes: number) =>
  new InputTooLargeError(path, `${what} is ${size} bytes; the limit is ${maxBytes}`);

/** The bytes of a file of at most `maxBytes`; InputTooLargeError, before a byte is read, for a larger one. */
export function readInputBytes(path: string, maxBytes: number, what: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) throw tooLarge(path, what, size, maxBytes);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The text of a file of at most `maxBytes`, as readInputBytes. */
export function readInputText(path: string, maxBytes: number, what: string): string {
  return readInputBytes(path, maxBytes, what).toString("utf8");
}

/** readInputText without blocking the event loop, for files read during a run. */
export async function readInputTextAsync(path: string, maxBytes: number, what: string): Promise<string> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    if (size > maxBytes) throw tooLarge(path, what, size, maxBytes);
    return await file.readFile("utf8");
  } finally {
    await file.close();
  }
}

/**
 * The text of a file whose problems are reported as file:line (the corpus, the ledger,
 * goldens, real-servers.yaml), or a problem at its line 1 (under `displayName`) when it
 * is larger than `maxBytes`.
 */
export function readInput(path: string, displayName: string, maxBytes: number, what: string): string {
  try {
    return readInputText(path, maxBytes, what);
  } catch (e) {
    if (e instanceof InputTooLargeError) throw new ProblemsError([{ file: displayName, line: 1, field: "", message: e.reason }]);
    throw e;
  }
}
