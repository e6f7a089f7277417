// Builds the default synthetic chain with this checkout's code into the folder given (the
// global setup of a jest run: synthetic-cache-setup.js).
import { buildSynthetic } from "../../src/zcash/fixture/chain/synthetic/build.js";
import { SYNTHETIC_DEFAULT_SEED } from "../../src/zcash/fixture/chain/synthetic.js";
import { writeSyntheticCache } from "../../src/zcash/fixture/chain/synthetic-cache.js";

const dir = process.argv[2];
if (!dir) throw new Error("usage: write-synthetic-cache.ts <folder>");
writeSyntheticCache(dir, SYNTHETIC_DEFAULT_SEED, buildSynthetic(SYNTHETIC_DEFAULT_SEED));
