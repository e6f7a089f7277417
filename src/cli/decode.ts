// `zconform decode <file>`: decode raw Zcash blocks (hex lines or one binary block) and
// print one JSON object per block, or the derived CompactBlock in protobuf JSON.
// Exit codes: 0 all good, 1 some block's merkle root does not match, 2 unreadable input.
import { toJson } from "@bufbuild/protobuf";
import { CompactBlockSchema } from "../zcash/gen/walletrpc/compact_formats_pb.js";
import { decodeBlock, type DecodedBlock } from "../zcash/codec/block.js";
import { displayHex, hexToBytes, HexError } from "../zcash/codec/bytes.js";
import { ALL_POOL_TYPES, compactBlock } from "../zcash/codec/compact.js";
import { networkByName, upgradeAt, UPGRADE_NAMES, type NetworkName, type NetworkParams } from "../zcash/codec/network.js";
import { DecodeError } from "../zcash/codec/reader.js";
import { INPUT_LIMITS, InputTooLargeError, readInputBytes, readInputText } from "../core/io/input-limits.js";
import type { Output } from "./output.js";
import type { Command } from "commander";
import { NETWORK_NAMES, oneOf } from "./options.js";

export interface DecodeCommandOptions {
  /** Adds the network upgrade active at each block's height to the summary. */
  network?: NetworkName;
  /** Print the CompactBlock (all pools, transparent included) instead of the summary. */
  compact?: boolean;
}

export const EXIT_OK = 0;
export const EXIT_INVALID_BLOCK = 1;
export const EXIT_BAD_INPUT = 2;

interface Source {
  /** "file:line" for text input, "file" for a binary block. */
  where: string;
  /** Hex text or bytes. */
  data: string | Uint8Array;
}

function readSources(file: string): Source[] {
  if (file.endsWith(".bin")) {
    const buf = readInputBytes(file, INPUT_LIMITS.blockFileBytes, "the block file");
    return [{ where: file, data: new Uint8Array(buf.buffer, buf.byteOffset, buf.length) }];
  }
  const text = readInputText(file, INPUT_LIMITS.blockFileBytes, "the block file");
  const sources: Source[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line) sources.push({ where: `${file}:${i + 1}`, data: line });
  });
  return sources;
}

function summary(block: DecodedBlock, network: NetworkParams | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    height: block.height ?? null,
    hash: displayHex(block.hash),
    prevHash: displayHex(block.header.prevHash),
    merkleRoot: displayHex(block.header.merkleRoot),
    merkleRootValid: block.merkleRootValid,
    time: block.header.time,
    version: block.header.version,
    size: block.size,
    txCount: block.transactions.length,
    txids: block.txids.map(displayHex),
    txVersions: block.transactions.map((t) => t.version),
  };
  if (network && block.height !== undefined) {
    const u = upgradeAt(network, block.height);
    out.upgrade = u ? UPGRADE_NAMES[u] : "Sprout";
  }
  return out;
}

export async function decodeCommand(file: string, opts: DecodeCommandOptions, out: Output): Promise<number> {
  let network: NetworkParams | undefined;
  try {
    network = opts.network ? networkByName(opts.network) : undefined;
  } catch (e) {
    out.stderr((e as Error).message);
    return EXIT_BAD_INPUT;
  }
  let sources: Source[];
  try {
    sources = readSources(file);
  } catch (e) {
    out.stderr(e instanceof InputTooLargeError ? e.message : `${file}: cannot read: ${(e as Error).message}`);
    return EXIT_BAD_INPUT;
  }
  if (sources.length === 0) {
    out.stderr(`${file}: no blocks (the file is empty)`);
    return EXIT_BAD_INPUT;
  }

  let badInput = false;
  let invalidBlock = false;
  for (const src of sources) {
    let block: DecodedBlock;
    try {
      block = decodeBlock(typeof src.data === "string" ? hexToBytes(src.data) : src.data);
    } catch (e) {
      if (!(e instanceof HexError || e instanceof DecodeError)) throw e;
      // DecodeError messages start with "offset N:", HexError ones end with "at character N".
      out.stderr(`${src.where}: ${e instanceof HexError ? "bad hex: " : "bad block: "}${e.message}`);
      badInput = true;
      continue;
    }
    if (!block.merkleRootValid) {
      out.stderr(
        `${src.where}: merkle root mismatch: header has ${displayHex(block.header.merkleRoot)}, ` +
          `the transactions give ${displayHex(block.computedMerkleRoot)}`,
      );
      invalidBlock = true;
    }
    if (opts.compact) {
      if (block.height === undefined) {
        out.stderr(`${src.where}: cannot derive a compact block: the coinbase has no height push`);
        badInput = true;
        continue;
      }
      out.stdout(JSON.stringify(toJson(CompactBlockSchema, compactBlock(block, { poolTypes: ALL_POOL_TYPES }))));
    } else {
      out.stdout(JSON.stringify(summary(block, network)));
    }
  }
  return badInput ? EXIT_BAD_INPUT : invalidBlock ? EXIT_INVALID_BLOCK : EXIT_OK;
}

/** Declares `zconform decode` on the program. */
export function registerDecode(program: Command, io: Output): void {
  program
    .command("decode")
    .description("decode raw Zcash blocks (a file of hex lines, or a .bin block) to one JSON object per block")
    .argument("<file>", "file of raw block hex, one block per line, or a binary .bin block")
    .option("--network <name>", "network for address encoding: mainnet, testnet or regtest", oneOf(NETWORK_NAMES))
    .option("--compact", "print the derived CompactBlock (protobuf JSON, all pools) instead")
    .action(async (file: string, opts: DecodeCommandOptions) => {
      process.exitCode = await decodeCommand(file, opts, io);
    });
}
