// Chain profiles (cases/chains/<name>.yaml): the anchors that cases refer to, for one
// chain. Static anchors are constants; dynamic ones (the tip of a live chain) are
// resolved through the oracle when a run starts.

import { readdirSync } from "node:fs";
import { INPUT_LIMITS, readInput } from "../io/input-limits.js";
import { join, relative } from "node:path";
import { Ajv } from "ajv";
import { parseLocated, ProblemsError } from "../io/located-yaml.js";
import { schemaProblems } from "../io/schema-problems.js";
import type { Anchors } from "./anchors.js";
import { chainProfileSchema } from "./schema.js";

export type Network = "mainnet" | "testnet" | "regtest";
export type DynamicAnchor = "tip_height" | "tip_hash";

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
}

const validate = new Ajv({ allErrors: true, strict: false }).compile(chainProfileSchema);

export function parseChainProfile(text: string, displayName: string): ChainProfile {
  const located = parseLocated(text, displayName);
  const problems = schemaProblems(validate, located);
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
    return readdirSync(join(casesRoot, "chains")).filter((f) => f.endsWith(".yaml")).map((f) => f.slice(0, -5)).sort();
  } catch {
    return [];
  }
}

/** Anchors with the dynamic ones filled in from the values the oracle gave. */
export function withDynamic(profile: ChainProfile, tip: { height: number; hash: string }): Anchors {
  const out: Record<string, number | string> = { ...profile.anchors };
  for (const [name, kind] of Object.entries(profile.dynamic)) out[name] = kind === "tip_height" ? tip.height : tip.hash;
  return out;
}

/**
 * Anchors for planning without an oracle (coverage): the dynamic ones stand at the block the
 * profile's constants were taken at. Without `frozenAt` and `frozenHash` they stay missing.
 */
export function frozenAnchors(profile: ChainProfile): Anchors {
  if (profile.frozenAt === undefined || profile.frozenHash === undefined) return profile.anchors;
  return withDynamic(profile, { height: profile.frozenAt, hash: profile.frozenHash });
}
