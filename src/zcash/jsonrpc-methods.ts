// The JSON-RPC methods of the lightwallet protocol's servers, the one list the corpus, coverage
// and the fixture read: the 28 zainod 0.10.1 serves plus Zebra's getblockhash
// (zebra-jsonrpc.md §2.1). Zebra serves 23 of Zaino's; the 5 marked zainoOnly are
// answered by Zaino alone, so there is no oracle answer to compare them with.
//
// Which of them each real version serves is read from its source: the `#[method]` entries of
// the jsonrpsee trait of the crate its Cargo.lock pins (JSONRPC_SERVED_BY).

export interface JsonRpcMethodInfo {
  name: string;
  zainoOnly?: boolean;
  zebraOnly?: boolean;
}

export const JSONRPC_METHODS: readonly JsonRpcMethodInfo[] = [
  { name: "getinfo" },
  { name: "getblockchaininfo" },
  { name: "getmempoolinfo" },
  { name: "getmininginfo" },
  { name: "gettxoutsetinfo", zainoOnly: true },
  { name: "getbestblockhash" },
  { name: "getdifficulty" },
  { name: "getblockdeltas", zainoOnly: true },
  { name: "getpeerinfo" },
  { name: "getblocksubsidy" },
  { name: "getblockcount" },
  { name: "getchaintips", zainoOnly: true },
  { name: "validateaddress" },
  { name: "z_validateaddress" },
  { name: "getaddressbalance" },
  { name: "sendrawtransaction" },
  { name: "getblock" },
  { name: "getblockheader" },
  { name: "getrawmempool" },
  { name: "z_gettreestate" },
  { name: "z_getsubtreesbyindex" },
  { name: "getrawtransaction" },
  { name: "gettxout" },
  { name: "getspentinfo", zainoOnly: true },
  { name: "getaddresstxids" },
  { name: "getaddressutxos" },
  { name: "getaddressdeltas", zainoOnly: true },
  { name: "getnetworksolps" },
  { name: "getblockhash", zebraOnly: true },
];

export const JSONRPC_METHOD_NAMES: readonly string[] = JSONRPC_METHODS.map((m) => m.name);

/** The JSON-RPC methods one real version serves, and the source they are read from. */
export interface JsonRpcServed {
  implementation: string;
  version: string;
  /** The jsonrpsee trait whose `#[method(name = …)]` entries these are, in the crate version the build's Cargo.lock pins. */
  source: { crate: string; version: string; file: string; symbol: string };
  /** In the trait's order. */
  methods: readonly string[];
}

const ZAINO_0_9_0_METHODS = [
  "getinfo",
  "getblockchaininfo",
  "getmempoolinfo",
  "getmininginfo",
  "gettxoutsetinfo",
  "getbestblockhash",
  "getdifficulty",
  "getblockdeltas",
  "getpeerinfo",
  "getblocksubsidy",
  "getblockcount",
  "getchaintips",
  "validateaddress",
  "z_validateaddress",
  "getaddressbalance",
  "sendrawtransaction",
  "getblock",
  "getblockheader",
  "getrawmempool",
  "z_gettreestate",
  "z_getsubtreesbyindex",
  "getrawtransaction",
  "gettxout",
  "getspentinfo",
  "getaddresstxids",
  "getaddressutxos",
  "getnetworksolps",
];

/** The real versions of real-servers.yaml that serve JSON-RPC (lightwalletd serves none). */
export const JSONRPC_SERVED_BY: readonly JsonRpcServed[] = [
  {
    implementation: "zaino",
    version: "0.10.1",
    source: { crate: "zaino-serve", version: "0.9.0", file: "src/rpc/jsonrpc/service.rs", symbol: "ZcashIndexerRpc" },
    // zainod 0.9.0's list with getaddressdeltas before getnetworksolps, its last entry.
    methods: [...ZAINO_0_9_0_METHODS.slice(0, -1), "getaddressdeltas", "getnetworksolps"],
  },
  {
    implementation: "zaino",
    version: "0.9.0",
    source: { crate: "zaino-serve", version: "0.7.0", file: "src/rpc/jsonrpc/service.rs", symbol: "ZcashIndexerRpc" },
    methods: ZAINO_0_9_0_METHODS,
  },
  {
    implementation: "zebrad",
    version: "7.0.0",
    source: { crate: "zebra-rpc", version: "19.0.0", file: "src/methods.rs", symbol: "Rpc" },
    methods: [
      "getinfo",
      "getdeprecationinfo",
      "getblockchaininfo",
      "getaddressbalance",
      "sendrawtransaction",
      "getblock",
      "getblockheader",
      "getbestblockhash",
      "getbestblockheightandhash",
      "getmempoolinfo",
      "getrawmempool",
      "z_gettreestate",
      "z_getsubtreesbyindex",
      "getrawtransaction",
      "getaddresstxids",
      "getaddressutxos",
      "stop",
      "getblockcount",
      "getblockhash",
      "getblocktemplate",
      "submitblock",
      "getmininginfo",
      "getnetworksolps",
      "getnetworkhashps",
      "getnetworkinfo",
      "getpeerinfo",
      "ping",
      "validateaddress",
      "z_validateaddress",
      "z_converttex",
      "getstandardfee",
      "getblocksubsidy",
      "getdifficulty",
      "z_listunifiedreceivers",
      "invalidateblock",
      "reconsiderblock",
      "generate",
      "generatetoaddress",
      "addnode",
      "rpc.discover",
      "gettxout",
    ],
  },
];
