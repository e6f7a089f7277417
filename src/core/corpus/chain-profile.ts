// Chain profiles (cases/chains/<name>.yaml): the anchors that cases refer to, for one
// chain. Static anchors are constants; dynamic ones (the tip of a live chain, a transaction
// waiting in its mempool) are resolved through the oracle when a run starts.

import { readdirSync } from "node:fs";
import { INPUT_LIMITS, readInput } from "../io/input-limits.js";
import { join, relative } from "node:path";
import { Ajv } from "ajv";
import { parseLocated, ProblemsError } from "../io/located-yaml.js";
import { schemaProblems, validatorOnFirstUse } from "../io/schema-problems.js";
import type { Anchors } from "./anchors.js";
import { chainProfileSchema } from "./schema.js";

export type Network = "mainnet" | "testnet" | "regtest";
export type DynamicAnchor = "tip_height" | "tip_hash" | "mempool_txid";

/** What a run learned at its start for the dynamic anchors; a value it could not learn is absent. */
export interface LiveFacts {
  tip?: { height: number; hash: string };
  /** Display-order id of a transaction in the oracle's mempool. */
  mempoolTxid?: string;
  /** Anchors read from the oracle's chain (a profile that discovers them); the profile's own win. */
  anchors?: Readonly<Record<string, number | string>>;
}

/**
 * What `coverage` plans a mempool anchor with: no frozen value can stand for a transaction
 * that waits in a live mempool, so the request is planned with this placeholder and the
 * case is listed as planned at run start.
 */
export const MEMPOOL_PLACEHOLDER = "0".repeat(64);

export interface ChainProfile {
  name: string;
  description?: string;
  network: Network;
  /**
   * The name its servers give the chain when it is not the network's usual one: zebrad
   * names a regtest chain "test" (NetworkKind::bip70_network_name), zcashd "regtest".
   */
  chainName?: string;
  /** Height the profile's constants were taken at, for chains that keep growing. */
  frozenAt?: number;
  /** Display-order hash of the block at `frozenAt`. */
  frozenHash?: string;
  anchors: Anchors;
  dynamic: Readonly<Record<string, DynamicAnchor>>;
  /**
   * Every anchor the profile does not fix is read from the chain the oracle serves when a
   * run starts (Protocol.startFacts), so a chain anyone mined plans the cases it can answer.
   */
  discover?: boolean;
}

const validate = validatorOnFirstUse(() => new Ajv({ allErrors: true, strict: false }).compile(chainProfileSchema));

export function parseChainProfile(text: string, displayName: string): ChainProfile {
  const located = parseLocated(text, displayName);
  const problems = schemaProblems(validate(), located);
  if (problems.length > 0) throw new ProblemsError(problems);
  const raw = located.value as Omit<ChainProfile, "dynamic"> & { dynamic?: Record<string, DynamicAnchor> };
  return { ...raw, dynamic: raw.dynamic ?? {} };
}

export function loadChainProfile(casesRoot: string, name: string): ChainProfile {
  const path = join(casesRoot, "chains", `${name}.yaml`);
  const display = relative(process.cwd(), path) || path;
  let text: string;
  try {
    text = readInput(path, display, INPUT_LIMITS.chainProfileBytes, "the chain profile");
  } catch (e) {
    if (e instanceof ProblemsError) throw e;
    const known = listChainProfiles(casesRoot);
    throw new Error(`no chain profile "${name}" (looked for ${path}); known: ${known.join(", ") || "none"}`);
  }
  return parseChainProfile(text, display);
}

export function listChainProfiles(casesRoot: string): string[] {
  try {
    return readdirSync(join(casesRoot, "chains"))
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

function liveValue(kind: DynamicAnchor, live: LiveFacts): number | string | undefined {
  if (kind === "tip_height") return live.tip?.height;
  if (kind === "tip_hash") return live.tip?.hash;
  return live.mempoolTxid;
}

/** Anchors with the dynamic ones filled in from the values the run learned at its start. */
export function withDynamic(profile: ChainProfile, live: LiveFacts): Anchors {
  const out: Record<string, number | string> = { ...live.anchors, ...profile.anchors };
  for (const [name, kind] of Object.entries(profile.dynamic)) {
    const value = liveValue(kind, live);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const UNLEARNT: Readonly<Record<DynamicAnchor, string>> = {
  tip_height: "the run found no tip (no oracle and no build answered GetLatestBlock)",
  tip_hash: "the run found no tip (no oracle and no build answered GetLatestBlock)",
  mempool_txid: "the oracle's mempool held no transaction when the run started (or there is no oracle)",
};

/** Why each dynamic anchor the run could not learn is missing, by anchor name. */
export function unlearntAnchors(profile: ChainProfile, live: LiveFacts): Map<string, string> {
  return new Map(
    Object.entries(profile.dynamic)
      .filter(([, kind]) => liveValue(kind, live) === undefined)
      .map(([name, kind]) => [name, UNLEARNT[kind]]),
  );
}

/** Whether the profile has a dynamic anchor of this kind. */
export const needsLive = (profile: ChainProfile, kind: DynamicAnchor) => Object.values(profile.dynamic).includes(kind);

/**
 * Anchors for planning without an oracle (coverage): the tip stands at the block the
 * profile's constants were taken at (missing without `frozenAt` and `frozenHash`), and a
 * mempool transaction at MEMPOOL_PLACEHOLDER unless `mempool` is false.
 */
export function frozenAnchors(profile: ChainProfile, o: { mempool?: boolean } = {}): Anchors {
  return withDynamic(profile, {
    ...(profile.frozenAt !== undefined && profile.frozenHash !== undefined ? { tip: { height: profile.frozenAt, hash: profile.frozenHash } } : {}),
    ...(o.mempool !== false ? { mempoolTxid: MEMPOOL_PLACEHOLDER } : {}),
  });
}
