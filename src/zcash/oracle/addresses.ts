// Transparent-address rpcs from getaddressbalance, getaddresstxids, getaddressutxos and
// getrawtransaction (zebra-jsonrpc.md §2.6, §4.2; lightwallet-protocol.md §3.2, §3.4).
//
// Checks made before asking the node, as a spec-correct server makes them:
// - each address: lightwalletd's rule (`t` + 34 ASCII letters or digits), then a valid
//   address of the node's network (a node would answer 0 for another network's address);
// - at most 10,000 addresses; an empty list is Balance 0 / no UTXOs without a call;
// - duplicates are sent once (lightwalletd HEAD deduplicates; zcashd would count twice);
// - GetTaddressTxids/Transactions: a range with a start; end 0 means the tip; start >
//   end and a span over 10,000,000 blocks are INVALID_ARGUMENT; heights past the tip
//   hold nothing (Zebra would clamp an excessive start to the tip and list the tip's
//   transactions, so the oracle cuts the range at the tip itself).

import { create } from "@bufbuild/protobuf";
import {
  BalanceSchema,
  GetAddressUtxosReplyListSchema,
  GetAddressUtxosReplySchema,
  RawTransactionSchema,
  type Address,
  type AddressList,
  type GetAddressUtxosArg,
  type GetAddressUtxosReply,
  type TransparentAddressBlockFilter,
} from "../gen/walletrpc/service_pb.js";
import { AddressError, decodeTransparentAddress, mainnet, reverseBytes, testnet } from "../codec/index.js";
import { inOrder, type Derivation } from "./context.js";
import { arr, field, hex, obj, str, uint } from "./node.js";
import { invalidArgument } from "./status.js";
import { fetchRawTransaction } from "./transactions.js";

/** Most addresses one request may name (lightwalletd HEAD, Zebra). */
export const MAX_ADDRESSES = 10_000;
/** Widest GetTaddressTransactions range lightwalletd accepts. */
export const MAX_TADDR_RANGE = 10_000_000n;

const LWD_TADDR = /^t[A-Za-z0-9]{34}$/;

/** Checks every address against the node's network (regtest uses testnet's prefixes). */
async function checkAddresses(d: Derivation, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  const chain = await d.node.chain();
  const network = chain === "main" ? mainnet : testnet;
  for (const a of addresses) {
    if (!LWD_TADDR.test(a)) throw invalidArgument(`checkTaddress: transparent address ${a} contains invalid characters`);
    try {
      decodeTransparentAddress(a, network);
    } catch (e) {
      if (!(e instanceof AddressError)) throw e;
      throw invalidArgument(`checkTaddress: transparent address ${a} is not a valid address of the ${chain} chain: ${e.problem}`);
    }
  }
}

async function balanceOf(d: Derivation, addresses: readonly string[]): Promise<bigint> {
  const unique = [...new Set(addresses)];
  if (unique.length === 0) return 0n;
  const what = "getaddressbalance";
  return BigInt(uint(field(obj(await d.node.call(what, [{ addresses: unique }]), what), "balance", what)));
}

export async function getTaddressBalance(d: Derivation, list: AddressList): Promise<void> {
  const n = list.addresses.length;
  if (n > MAX_ADDRESSES) throw invalidArgument(`GetTaddressBalance: too many addresses (limit ${MAX_ADDRESSES})`);
  await checkAddresses(d, list.addresses);
  d.emit(BalanceSchema, create(BalanceSchema, { valueZat: await balanceOf(d, list.addresses) }));
}

export async function getTaddressBalanceStream(d: Derivation, messages: readonly Address[]): Promise<void> {
  if (messages.length > MAX_ADDRESSES) throw invalidArgument(`GetTaddressBalanceStream: too many addresses (limit ${MAX_ADDRESSES})`);
  const addresses = messages.map((m) => m.address);
  await checkAddresses(d, addresses);
  // Collected, then one node call: a repeated address counts once.
  d.emit(BalanceSchema, create(BalanceSchema, { valueZat: await balanceOf(d, addresses) }));
}

async function tipHeight(d: Derivation): Promise<bigint> {
  return BigInt(uint(field(obj(await d.node.call("getblockchaininfo"), "getblockchaininfo"), "blocks", "getblockchaininfo")));
}

/** GetTaddressTxids and GetTaddressTransactions: full transactions touching the address, chain order. */
export async function getTaddressTransactions(d: Derivation, filter: TransparentAddressBlockFilter): Promise<void> {
  const rpc = d.rpc;
  await checkAddresses(d, [filter.address]);
  const { range } = filter;
  if (!range) throw invalidArgument(`${rpc}: must specify block range`);
  if (!range.start) throw invalidArgument(`${rpc}: must specify a start block height`);
  const tip = await tipHeight(d);
  // A hash in the range is ignored: heights decide.
  const start = range.start.height;
  const end = range.end?.height || tip;
  if (start > end) throw invalidArgument(`${rpc}: getaddresstxids failed, error: start Height(${start}) must be less than or equal to end Height(${end})`);
  if (end - start + 1n > MAX_TADDR_RANGE) throw invalidArgument(`${rpc}: block range too wide (${end - start + 1n} blocks, limit ${MAX_TADDR_RANGE})`);
  // biome-ignore lint/complexity/useMathMinMax: heights are bigints, which Math.min does not take
  const last = end > tip ? tip : end;
  if (start > last) return;
  const what = "getaddresstxids";
  const txids = arr(await d.node.call(what, [{ addresses: [filter.address], start: Number(start), end: Number(last) }]), what).map((t, i) =>
    str({ v: t, what: `${what}[${i}]` }),
  );
  for await (const raw of inOrder(txids, (txid) => fetchRawTransaction(d, txid))) d.emit(RawTransactionSchema, raw);
}

function utxoReply(u: unknown, i: number): GetAddressUtxosReply {
  const what = `getaddressutxos[${i}]`;
  const o = obj(u, what);
  return create(GetAddressUtxosReplySchema, {
    address: str(field(o, "address", what)),
    txid: reverseBytes(hex(field(o, "txid", what))),
    index: uint(field(o, "outputIndex", what)),
    script: hex(field(o, "script", what)),
    valueZat: BigInt(uint(field(o, "satoshis", what))),
    height: BigInt(uint(field(o, "height", what))),
  });
}

/** The UTXOs in the node's (chain) order, startHeight filter then maxEntries cap. */
async function addressUtxos(d: Derivation, arg: GetAddressUtxosArg): Promise<GetAddressUtxosReply[]> {
  if (arg.addresses.length > MAX_ADDRESSES) throw invalidArgument(`${d.rpc}: too many addresses (limit ${MAX_ADDRESSES})`);
  await checkAddresses(d, arg.addresses);
  const unique = [...new Set(arg.addresses)];
  if (unique.length === 0) return [];
  const what = "getaddressutxos";
  let utxos = arr(await d.node.call(what, [{ addresses: unique }]), what).map(utxoReply);
  utxos = utxos.filter((u) => u.height >= arg.startHeight);
  return arg.maxEntries > 0 ? utxos.slice(0, arg.maxEntries) : utxos;
}

export async function getAddressUtxos(d: Derivation, arg: GetAddressUtxosArg): Promise<void> {
  d.emit(GetAddressUtxosReplyListSchema, create(GetAddressUtxosReplyListSchema, { addressUtxos: await addressUtxos(d, arg) }));
}

export async function getAddressUtxosStream(d: Derivation, arg: GetAddressUtxosArg): Promise<void> {
  for (const u of await addressUtxos(d, arg)) d.emit(GetAddressUtxosReplySchema, u);
}
