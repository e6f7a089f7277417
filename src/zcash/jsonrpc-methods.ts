// The JSON-RPC methods of the lightwallet protocol's servers, the one list the corpus, coverage
// and the fixture read: the 27 Zaino serves plus getblockhash
// (zebra-jsonrpc.md §2.1). Zebra serves 23 of Zaino's; the 4 marked zainoOnly are
// answered by Zaino alone, so there is no oracle answer to compare them with.

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
  { name: "getnetworksolps" },
  { name: "getblockhash", zebraOnly: true },
];

export const JSONRPC_METHOD_NAMES: readonly string[] = JSONRPC_METHODS.map((m) => m.name);
