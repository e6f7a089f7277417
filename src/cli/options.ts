// Options shared by the declarations of several commands.

import { Command, InvalidArgumentError } from "commander";
import { PROFILE_NAMES, type ProfileName } from "../zcash/fixture/network.js";

export const collect = (value: string, previous: string[] = []) => [...previous, value];

export function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!values.includes(value as T)) throw new InvalidArgumentError(`must be one of ${values.join(", ")}`);
    return value as T;
  };
}

export const profileList = (value: string, previous: ProfileName[] = []) => [...previous, oneOf(PROFILE_NAMES)(value)];

export const SHARD_HELP = "run only shard k of n (1-based, e.g. 2/4): cases dealt round robin over their sorted ids; " +
  "stale ledger entries do not fail a shard (zconform merge judges them)";

/** --demo, --profile and --chain of the commands that measure the fixture network when given no config. */
export function fixtureChoice(cmd: Command): Command {
  return cmd
    .option("--demo", "sweep the embedded fixture network (the default when no --config is given)")
    .option("--profile <name>", `fixture: only these profiles (${PROFILE_NAMES.join(", ")}); repeatable`, profileList)
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
