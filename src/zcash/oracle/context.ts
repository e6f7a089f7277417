// What every derivation works with: the rpc being derived, the node, and where the
// expected response messages go. Messages are encoded as they are emitted, so a stream
// that ends in an error status (an ascending range past the tip) keeps the messages a
// server sends before it.

import { toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { Node } from "./node.js";
import type { RpcName } from "./underivable.js";

export interface Derivation {
  readonly rpc: RpcName;
  readonly node: Node;
  /**
   * The lightwallet-protocol version whose rules the answer follows ("v0.4.0"); absent
   * means the newest (v0.5.0). Only answers whose rules changed between versions read it.
   */
  readonly protocol?: string;
  /** Appends one expected response message (its canonical protobuf-es encoding). */
  emit<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): void;
}

export function derivation(rpc: RpcName, node: Node, protocol?: string): Derivation & { readonly messages: Uint8Array[] } {
  const messages: Uint8Array[] = [];
  return {
    rpc,
    node,
    ...(protocol !== undefined ? { protocol } : {}),
    messages,
    emit: (schema, message) => {
      messages.push(toBinary(schema, message));
    },
  };
}

/** Calls kept in flight while a stream is derived (blocks of a range, transactions). */
export const PREFETCH = 8;

/**
 * `fn` over `items` with up to `window` calls in flight, results in item order. The
 * first failure (in item order) is thrown there; calls already started for later items
 * are awaited before the generator finishes, so nothing outlives the derivation. Items
 * are pulled lazily: a range up to 2^64 − 1 costs only the calls it gets to.
 */
export async function* inOrder<T, R>(items: Iterable<T>, fn: (item: T) => Promise<R>, window = PREFETCH): AsyncGenerator<R> {
  const it = items[Symbol.iterator]();
  const pending: Promise<R>[] = [];
  const fill = () => {
    while (pending.length < window) {
      const next = it.next();
      if (next.done) return;
      const p = fn(next.value);
      p.catch(() => undefined); // observed in order below; this only silences early rejections
      pending.push(p);
    }
  };
  try {
    fill();
    while (pending.length > 0) {
      const result = await pending[0]!;
      pending.shift();
      fill();
      yield result;
    }
  } finally {
    await Promise.allSettled(pending);
  }
}
