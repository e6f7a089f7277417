// The wallet's view of a regtest zebrad: the mature outputs of its keys (getaddressutxos),
// spends it signs and sends (sendrawtransaction), and blocks that mine them. Used to put
// real transactions in the recorded chain (regtest-transact.ts) and by scenarios on a
// real node (zcash/scenario/zebrad-mover.ts).

import { bytesToHex } from "../codec/index.js";
import { buildTransparentSpend, matureUtxos, type AddressUtxo, type Payment, type WalletKey } from "../wallet/index.js";
import { RealServerError } from "./process.js";
import type { MinedStretch } from "./regtest-chain.js";
import type { SentTransaction } from "./regtest-transact.js";
import { waitInMempool, type RunningZebrad } from "./zebrad.js";

export interface Sent extends SentTransaction {
  raw: Uint8Array;
}

interface ChainInfo {
  blocks: number;
  consensus: { nextblock: string };
}

export class RegtestWallet {
  /** Txids the wallet sent: their outputs are no coinbase, so spendable at once. */
  readonly sent = new Set<string>();
  constructor(private readonly z: Pick<RunningZebrad, "rpc" | "mine">) {}

  async utxos(key: WalletKey): Promise<AddressUtxo[]> {
    const tip = await this.z.rpc<number>("getblockcount");
    const answer = await this.z.rpc("getaddressutxos", [{ addresses: [key.address] }]);
    return matureUtxos(answer, tip, { nonCoinbaseTxids: this.sent }).sort((x, y) => x.height - y.height || x.index - y.index);
  }

  /** With `wanted`, the first payment's amount is lowered a zatoshi at a time until the signed spend is one it wants. */
  async send(label: string, key: WalletKey, utxos: AddressUtxo[], outputs: Payment[], wanted?: (spend: { txid: string }) => boolean): Promise<Sent> {
    const info = await this.z.rpc<ChainInfo>("getblockchaininfo");
    const build = (less: bigint) =>
      buildTransparentSpend({
        utxos,
        key,
        outputs: outputs.map((p, i) => (i === 0 ? { ...p, value: p.value - less } : p)),
        branchId: Number.parseInt(info.consensus.nextblock, 16),
        expiryHeight: info.blocks + 40,
      });
    let spend = build(0n);
    for (let less = 1n; wanted && !wanted(spend); less++) {
      if (less > 100_000n) throw new RealServerError(`no amount within 100,000 zatoshi of ${outputs[0]!.value} gives "${label}" the txid wanted`);
      spend = build(less);
    }
    const txid = await this.z.rpc<string>("sendrawtransaction", [bytesToHex(spend.raw)]);
    if (txid !== spend.txid) throw new RealServerError(`zebrad's sendrawtransaction answered txid ${txid} for a transaction whose txid is ${spend.txid}`);
    this.sent.add(txid);
    return { label, txid, from: key.address, inputs: utxos.length, outputs: spend.tx.vout.length, raw: spend.raw };
  }

  /** Mines one block once the transactions are in the mempool, and checks that it holds every one of them. */
  async mineBlock(stretches: MinedStretch[], txs: Sent[]): Promise<SentTransaction[]> {
    await waitInMempool(
      this.z,
      txs.map((t) => t.txid),
    );
    const t0 = performance.now();
    const [hash] = await this.z.mine(1);
    const block = await this.z.rpc<{ height: number; tx: string[] }>("getblock", [hash, 1]);
    const missing = txs.filter((t) => !block.tx.includes(t.txid));
    if (missing.length > 0) throw new RealServerError(`zebrad mined block ${block.height} without ${missing.map((t) => t.txid).join(", ")} from its mempool`);
    stretches.push({ blocks: 1, pool: "transparent", first: block.height, last: block.height, ms: performance.now() - t0 });
    return txs.map(({ raw: _raw, ...t }) => ({ ...t, height: block.height }));
  }
}
