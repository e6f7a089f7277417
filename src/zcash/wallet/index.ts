// A transparent wallet for test chains: deterministic keys, signed v5 spends of P2PKH
// outputs, and the choice of spendable outputs from a node's getaddressutxos answer.
//
// On a Zebra regtest that mines to walletKey(label, "regtest").address, a spend is:
//   tip = getblockchaininfo.blocks, branchId = parseInt(getblockchaininfo.consensus.nextblock, 16)
//   utxos = matureUtxos(getaddressutxos({addresses: [key.address]}), tip)
//   buildTransparentSpend({ utxos, key, outputs, branchId, expiryHeight: tip + 40 }).raw → sendrawtransaction
// NU5 must be active at tip + 1 (v5 transactions), and coinbase outputs need 100 blocks.
export { walletKey, hash160, p2pkhScript, type WalletKey } from "./keys.js";
export { buildTransparentSpend, type BuiltSpend, type Payment, type SpendRequest, type Utxo } from "./spend.js";
export {
  COINBASE_MATURITY,
  coinbaseSpendableAt,
  isCoinbaseMature,
  matureUtxos,
  parseAddressUtxos,
  type AddressUtxo,
  type MatureUtxoOptions,
} from "./utxos.js";
export {
  SIGHASH_ALL,
  SIGHASH_ANYONECANPAY,
  SIGHASH_NONE,
  SIGHASH_SINGLE,
  shieldedSighashV5,
  sighashesV5,
  transparentSighashV5,
  type SpentOutput,
} from "./sighash.js";
export { sighashV4, type SignedInputV4 } from "./sighash-v4.js";
export { conventionalFee, dustThreshold, logicalActions, MARGINAL_FEE } from "./fee.js";
