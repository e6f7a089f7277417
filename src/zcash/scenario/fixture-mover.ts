// The fixture's node as a scenario's chain mover (core/scenario/mover.ts): mining,
// sending and reorganizing its moving synthetic chain (fixture/moving/chain.ts).

import type { ChainMover, TipId } from "../../core/scenario/mover.js";
import { displayHex } from "../codec/index.js";
import type { ChainModel } from "../fixture/chain/model.js";
import type { MovingChain } from "../fixture/moving/chain.js";

function tipOf(m: ChainModel): TipId {
  return { height: m.tipHeight, hash: displayHex(m.blockAt(m.tipHeight)!.block.hash) };
}

export function fixtureMover(chain: MovingChain): ChainMover {
  return {
    tip: async () => tipOf(chain.model),
    mine: async () => tipOf(chain.mine()),
    send: async () => chain.send(),
    reorg: async (depth, include) => {
      const r = chain.reorg(depth, include);
      return { ...r, tip: tipOf(chain.model) };
    },
    reset: async () => chain.reset(),
  };
}
