// Which of the corpus's JSON-RPC methods each real server version serves, as the protocol
// reads it from that version's source: a method a version lacks is one whose cases that
// version can only answer "not found", so its builds are judged on those cases by the
// ledger, not by the method.

/** The JSON-RPC methods one server version serves, and where that list is read. */
export interface ServedMethods {
  implementation: string;
  version: string;
  /** e.g. "zaino-serve 0.9.0 src/rpc/jsonrpc/service.rs ZcashIndexerRpc". */
  source: string;
  methods: readonly string[];
}

/** What a protocol may say besides its method list: the methods of each real version. */
export interface JsonRpcServedBy {
  jsonRpcServedBy?: readonly ServedMethods[];
}

export interface ServedCoverage {
  server: string;
  source: string;
  /** All the methods the version serves, the corpus's or not. */
  methods: number;
  /** How many of the corpus's methods it serves. */
  ofCorpus: number;
  /** The corpus's methods it does not serve, in the corpus's order. */
  lacks: string[];
}

export function servedCoverage(corpusMethods: readonly string[], servedBy: readonly ServedMethods[]): ServedCoverage[] {
  return servedBy.map((s) => ({
    server: `${s.implementation} ${s.version}`,
    source: s.source,
    methods: s.methods.length,
    ofCorpus: corpusMethods.filter((m) => s.methods.includes(m)).length,
    lacks: corpusMethods.filter((m) => !s.methods.includes(m)),
  }));
}

/** One line per version: how many of the corpus's methods it serves, from which source, and which it lacks. */
export function formatServed(served: readonly ServedCoverage[], corpusMethods: number): string[] {
  return served.map((s) => {
    const beyond = s.methods > s.ofCorpus ? `, ${s.methods} in all` : "";
    const lacks = s.lacks.length > 0 ? `; not ${s.lacks.join(", ")}` : "";
    return `${s.server}: ${s.ofCorpus}/${corpusMethods}${beyond} (${s.source})${lacks}`;
  });
}
