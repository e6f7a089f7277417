// The demo as a test: the whole corpus against the reference and every emulated profile
// of the fixture network, classified with the ledger (cases/quirks.yaml). Every emulated
// deviation must be a known quirk: a new divergence fails, and so does a stale entry.

import { conformanceSuite } from "../src/jest/index.js";

conformanceSuite({
  name: "fixture profiles vs ledger",
  fixture: {},
  ledger: "cases/quirks.yaml",
});
