// Options shared by the declarations of several commands.

import { type Command, InvalidArgumentError, Option } from "commander";
import type { NetworkName } from "../zcash/codec/network.js";
import { PROFILE_NAMES, type ProfileName } from "../zcash/fixture/network.js";
import { casesOption } from "./cases-option.js";

export const collect = (value: string, previous: string[] = []) => [...previous, value];

export function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!values.includes(value as T)) throw new InvalidArgumentError(`must be one of ${values.join(", ")}`);
    return value as T;
  };
}

export const NETWORK_NAMES: readonly NetworkName[] = ["mainnet", "testnet", "regtest"];

const profileList = (value: string, previous: ProfileName[] = []) => [...previous, oneOf(PROFILE_NAMES)(value)];

/** --profile: fixture profiles by name, repeatable; `what` says what the command does with them. */
export function profileOption(what: string, byDefault?: string): Option {
  return new Option("--profile <name>", `${what} (${byDefault ? `default ${byDefault}; ` : ""}${PROFILE_NAMES.join(", ")}); repeatable`).argParser(profileList);
}

export const SHARD_HELP =
  "run only shard k of n (1-based, e.g. 2/4): cases dealt round robin over their sorted ids; " +
  "stale ledger entries do not fail a shard (zconform merge judges them)";

/** --cases, --ledger, --case and --method of the commands that run the corpus's cases. */
export function corpusOptions(cmd: Command): Command {
  return cmd
    .addOption(casesOption("corpus folder"))
    .option("--ledger <file>", "known-quirks ledger (default <cases>/quirks.yaml)")
    .option("--case <pattern>", "only cases whose id matches (* wildcard); repeatable", collect)
    .option("--method <name>", "only cases of this rpc or JSON-RPC method; repeatable", collect);
}

/** --demo, --profile and --chain of the commands that measure the fixture network when given no config. */
export function fixtureChoice(cmd: Command): Command {
  return cmd
    .option("--demo", "measure the embedded fixture network (the default when no --config is given)")
    .addOption(profileOption("fixture: only these profiles"))
    .option("--chain <file>", "fixture: serve real raw blocks from this file instead of the synthetic chain");
}

/** -c/--config and --build of the commands that measure configured builds. */
export function buildsChoice(cmd: Command): Command {
  return cmd
    .option("-c, --config <file>", "builds config (default: the embedded fixture network)")
    .option("--build <name>", "with --config: only these builds; repeatable", collect);
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}
