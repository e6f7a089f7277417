// A regtest chain replayed instead of mined. zebrad's `generate` writes random bytes into
// every coinbase, so no two mined chains are alike, and neither are the answers about them.
// A run's folder keeps what it mined: blocks.txt (every block from genesis, raw hex),
// mempool.txt (the transactions left unmined, raw hex, in the order zebrad took them) and
// regtest.json (activation heights, the wallet's transactions). A fresh zebrad started
// with the same activation heights is given those blocks with submitblock and those
// transactions with sendrawtransaction: the chain is then byte for byte the recorded one,
// which is what goldens of real servers on regtest need (golden/regtest/).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { INPUT_LIMITS, readInputText } from "../../core/io/input-limits.js";
import { bytesToHex, hexToBytes } from "../codec/index.js";
import type { Upgrade } from "../codec/network.js";
import { RealServerError } from "./process.js";
import type { TransactReport } from "./regtest-transact.js";
import { waitInMempool, type RunningZebrad } from "./zebrad.js";

export const REPLAY_FILES = { blocks: "blocks.txt", mempool: "mempool.txt", document: "regtest.json" } as const;

export interface RegtestReplay {
  folder: string;
  /** Raw block hex from genesis. */
  blocks: string[];
  mempool: Uint8Array[];
  activationHeights: Partial<Record<Upgrade, number>>;
  /** The wallet's transactions as the recorded run listed them, when it made any. */
  transact?: Omit<TransactReport, "mempoolRaw">;
}

export class ReplayError extends Error {}

const hexLines = (file: string, what: string): string[] =>
  readInputText(file, INPUT_LIMITS.blockFileBytes, what)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

/** What a folder written by `zconform regtest` holds; a missing or malformed file is an error naming it. */
export function readReplay(folder: string): RegtestReplay {
  const path = (name: string) => join(folder, name);
  for (const name of [REPLAY_FILES.blocks, REPLAY_FILES.document]) {
    if (!existsSync(path(name))) throw new ReplayError(`${path(name)} is missing: replay a folder that \`zconform regtest --dir\` wrote`);
  }
  const blocks = hexLines(path(REPLAY_FILES.blocks), "the block file");
  blocks.forEach((b, i) => {
    if (!/^([0-9a-f]{2})+$/.test(b)) throw new ReplayError(`${path(REPLAY_FILES.blocks)}:${i + 1}: not a raw block in hex`);
  });
  if (blocks.length < 2)
    throw new ReplayError(`${path(REPLAY_FILES.blocks)}: ${blocks.length} block(s); a chain to replay needs genesis and at least one more`);
  const mempool = existsSync(path(REPLAY_FILES.mempool))
    ? hexLines(path(REPLAY_FILES.mempool), "the mempool file").map((l, i) => {
        if (!/^([0-9a-f]{2})+$/.test(l)) throw new ReplayError(`${path(REPLAY_FILES.mempool)}:${i + 1}: not a raw transaction in hex`);
        return hexToBytes(l);
      })
    : [];
  const docText = readInputText(path(REPLAY_FILES.document), INPUT_LIMITS.replayDocumentBytes, "the replay document");
  let doc: { activationHeights?: unknown; transactions?: Omit<TransactReport, "mempoolRaw">; tip?: unknown };
  try {
    doc = JSON.parse(docText);
  } catch (e) {
    throw new ReplayError(`${path(REPLAY_FILES.document)}: not JSON: ${(e as Error).message}`);
  }
  const heights = doc.activationHeights;
  if (!heights || typeof heights !== "object" || !Object.values(heights).every((h) => Number.isInteger(h) && (h as number) >= 1)) {
    throw new ReplayError(`${path(REPLAY_FILES.document)}: activationHeights must map upgrades to heights >= 1`);
  }
  if (doc.tip !== blocks.length - 1)
    throw new ReplayError(
      `${path(REPLAY_FILES.document)} says the tip is ${String(doc.tip)}, ${path(REPLAY_FILES.blocks)} holds heights 0..${blocks.length - 1}`,
    );
  return {
    folder,
    blocks,
    mempool,
    activationHeights: heights as RegtestReplay["activationHeights"],
    ...(doc.transactions ? { transact: doc.transactions } : {}),
  };
}

/** The transactions left in the mempool, beside blocks.txt, so that the folder can be replayed. */
export function writeMempoolFile(folder: string, mempool: readonly Uint8Array[]): void {
  writeFileAtomic(join(folder, REPLAY_FILES.mempool), mempool.map((t) => `${bytesToHex(t)}\n`).join(""));
}

/** Gives a fresh zebrad (tip 0) the recorded blocks and mempool; how long the blocks took. */
export async function replayChain(z: RunningZebrad, replay: RegtestReplay): Promise<{ ms: number }> {
  const genesis = await z.rpc<string>("getblock", ["0", 0]);
  if (genesis !== replay.blocks[0])
    throw new RealServerError(
      `zebrad's regtest genesis block is not the first block of ${join(replay.folder, REPLAY_FILES.blocks)}: it was mined on another network or another zebrad`,
    );
  const t0 = performance.now();
  for (let h = 1; h < replay.blocks.length; h++) {
    const answer = await z.rpc<string | null>("submitblock", [replay.blocks[h]]);
    if (answer !== null && answer !== undefined)
      throw new RealServerError(`zebrad refused block ${h} of ${join(replay.folder, REPLAY_FILES.blocks)}: submitblock answered ${JSON.stringify(answer)}`);
  }
  const ms = performance.now() - t0;
  const tip = await z.rpc<number>("getblockcount");
  if (tip !== replay.blocks.length - 1) throw new RealServerError(`zebrad's tip is ${tip} after the replay, not ${replay.blocks.length - 1}`);
  const txids: string[] = [];
  for (const raw of replay.mempool) txids.push(await z.rpc<string>("sendrawtransaction", [bytesToHex(raw)]));
  await waitInMempool(z, txids);
  return { ms };
}
