// `zconform cases`: what the corpus holds, for people (a table) and tools (--json).

import { loadCorpus } from "../core/corpus/load.js";
import { ProblemsError } from "../core/io/located-yaml.js";
import type { Output } from "./output.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";

export interface CaseListing {
  id: string;
  method: string;
  transport: "grpc" | "jsonrpc";
  expect: string;
  tags: string[];
  title?: string;
  source: string;
}

export async function casesCommand(opts: { cases: string; json?: boolean }, out: Output): Promise<number> {
  let listing: CaseListing[];
  try {
    listing = loadCorpus(opts.cases, lightwalletProtocol).map((c) => ({
      id: c.id,
      method: c.method,
      transport: c.transport,
      expect: c.expect.kind === "error" ? `error ${c.expect.codes.join("|")}` : c.expect.kind,
      tags: c.tags,
      ...(c.title ? { title: c.title } : {}),
      source: `${c.source.file}:${c.source.line}`,
    }));
  } catch (e) {
    if (e instanceof ProblemsError) {
      out.stderr(e.message);
      return 2;
    }
    throw e;
  }
  if (opts.json) {
    out.stdout(JSON.stringify(listing, null, 2));
    return 0;
  }
  const width = Math.max(...listing.map((c) => c.id.length), 2);
  for (const c of listing) out.stdout(`${c.id.padEnd(width)}  ${c.transport.padEnd(7)}  ${c.expect}`);
  const methods = new Set(listing.map((c) => `${c.transport}:${c.method}`));
  out.stdout(`${listing.length} cases over ${methods.size} methods`);
  return 0;
}

/** Declares `zconform cases` on the program. */
export function registerCases(program: Command, io: Output): void {
  program
    .command("cases")
    .description("list the corpus: one entry per case with id, method and transport")
    .addOption(casesOption("corpus folder"))
    .option("--json", "print a JSON array instead of a table")
    .action(async (opts: { cases: string; json?: boolean }) => {
      process.exitCode = await casesCommand(opts, io);
    });
}
