// --shard k/n as a command option: parsed by src/modes/shard, its mistakes reported like every
// other bad input (a message and exit code 2).

import { parseShard, ShardError, type Shard } from "../modes/shard/shard.js";
import { InputError } from "./inputs.js";

export function shardOption(text: string): Shard {
  try {
    return parseShard(text);
  } catch (e) {
    if (e instanceof ShardError) throw new InputError(e.message);
    throw e;
  }
}
