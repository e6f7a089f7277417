// One JSON-RPC call to a Zebra-style node, its result or a RealServerError naming the
// method and what went wrong: how zconform drives a node it moves (zebrad on regtest, or
// the fixture's moving node, which answers the same methods).

import type { JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { RealServerError } from "./process.js";

export type NodeCall = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

interface RpcAnswer<T> {
  result?: T;
  error?: { code: number; message: string } | null;
}

/** `node` names the node in errors ("zebrad"); calls without a deadline of their own get `deadlineMs`. */
export function nodeCall(
  target: JsonRpcTarget,
  node: string,
  deadlineMs = 30_000,
): NodeCall & { within: <T>(method: string, params: unknown[], ms: number) => Promise<T> } {
  const within = async <T>(method: string, params: unknown[], ms: number): Promise<T> => {
    const obs = await target.call(method, params, { deadlineMs: ms });
    if (obs.fault) throw new RealServerError(`${node} ${method}: ${obs.fault.kind}: ${obs.fault.detail} (last lines of its log may say why)`);
    let answer: RpcAnswer<T>;
    try {
      answer = JSON.parse(Buffer.from(obs.body).toString("utf8")) as RpcAnswer<T>;
    } catch {
      throw new RealServerError(`${node} ${method}: HTTP ${obs.httpStatus}, not JSON: ${Buffer.from(obs.body.slice(0, 200)).toString("utf8")}`);
    }
    if (answer.error) throw new RealServerError(`${node} ${method}: error ${answer.error.code}: ${answer.error.message}`);
    return answer.result as T;
  };
  const call = (<T>(method: string, params: unknown[] = []) => within<T>(method, params, deadlineMs)) as NodeCall & { within: typeof within };
  call.within = within;
  return call;
}
