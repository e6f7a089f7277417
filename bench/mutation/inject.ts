// How a mutant reaches a build without touching its source: the fixture network is
// started once with wrappers around every profile's gRPC service and JSON-RPC dispatch,
// and each wrapper asks, call by call, whether a mutant is active for its profile and
// method. The oracle's gRPC derivation is wrapped the same way for mutants of the
// shared compact derivation, which every fixture server and the oracle use alike.

import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { CompactTxStreamer } from "../../src/zcash/gen/walletrpc/service_pb.js";
import type { ProfileName } from "../../src/zcash/fixture/grpc/profiles.js";
import type { FixtureWrappers } from "../../src/zcash/fixture/network.js";
import type { Dispatch } from "../../src/zcash/fixture/jsonrpc/envelope.js";
import type { Protocol } from "../../src/core/run/protocol.js";
import type { GrpcObservation } from "../../src/core/targets/observation.js";

/** Whichever message the rpc carries: operators read and set its fields by name, whatever its type. */
// biome-ignore lint/suspicious/noExplicitAny: operators are written once for every message type of the protocol
export type AnyMessage = any;

/** A change to one rpc of one build: to its request, its answers, or its error status. */
export interface GrpcMutation {
  rpc: string;
  /** The request the build sees instead of the client's (each message, for a client stream). */
  request?: (req: AnyMessage) => AnyMessage;
  /** The whole answer (one message for unary rpcs), before it is sent. */
  messages?: (ms: AnyMessage[]) => AnyMessage[];
  /** The status of an error the build answers. */
  status?: (code: Code) => Code;
}

/** A change to one JSON-RPC method of one build's JSON-RPC server. */
export interface JsonRpcMutation {
  method: string;
  /** The answer, `{ result }` or `{ error: { code, message } }`, replaced (the handler's values may be shared: never changed in place). */
  outcome: (o: AnyMessage) => AnyMessage;
}

/** What is injected right now: per profile, the mutations of its gRPC and JSON-RPC sides. */
export interface Injection {
  grpc?: (profile: ProfileName, rpc: string) => GrpcMutation | undefined;
  jsonrpc?: (profile: ProfileName, method: string) => JsonRpcMutation | undefined;
  /** Mutations of the derivation shared by every server and the oracle. */
  oracle?: (rpc: string) => GrpcMutation | undefined;
}

type Handler = (req: unknown, ctx: HandlerContext) => unknown;

function mutatedError(e: unknown, m: GrpcMutation): unknown {
  if (!m.status) return e;
  const ce = ConnectError.from(e);
  const code = m.status(ce.code);
  return code === ce.code ? e : new ConnectError(ce.rawMessage, code);
}

async function* mapped(reqs: AsyncIterable<unknown>, f: (r: unknown) => unknown): AsyncIterable<unknown> {
  for await (const r of reqs) yield f(r);
}

/** One rpc's handler under a mutation: collect the answer, change it, send it. */
function mutatedHandler(kind: string, h: Handler, m: GrpcMutation): Handler {
  const request = m.request ?? ((r: unknown) => r);
  const messages = m.messages ?? ((ms: AnyMessage[]) => ms);
  if (kind === "server_streaming") {
    return async function* (req, ctx) {
      const got: unknown[] = [];
      let failure: unknown;
      try {
        for await (const x of h(request(req), ctx) as AsyncIterable<unknown>) got.push(x);
      } catch (e) {
        failure = e;
      }
      yield* messages(got);
      if (failure !== undefined) throw mutatedError(failure, m);
    };
  }
  return async (req, ctx) => {
    try {
      const input = kind === "client_streaming" ? mapped(req as AsyncIterable<unknown>, request) : request(req);
      const [out] = messages([await h(input, ctx)]);
      if (out === undefined) throw new ConnectError("(mutant: answer dropped)", Code.Unknown);
      return out;
    } catch (e) {
      throw mutatedError(e, m);
    }
  };
}

/** The service with every rpc asking `active` at call time. */
export function injectedService(
  impl: ServiceImpl<typeof CompactTxStreamer>,
  active: (rpc: string) => GrpcMutation | undefined,
): ServiceImpl<typeof CompactTxStreamer> {
  const out: Record<string, Handler> = {};
  for (const method of CompactTxStreamer.methods) {
    const h = (impl as unknown as Record<string, Handler>)[method.localName]!.bind(impl);
    out[method.localName] = (req, ctx) => {
      const m = active(method.name);
      return m ? mutatedHandler(method.methodKind, h, m)(req, ctx) : h(req, ctx);
    };
  }
  return out as unknown as ServiceImpl<typeof CompactTxStreamer>;
}

export function injectedDispatch(dispatch: Dispatch, active: (method: string) => JsonRpcMutation | undefined): Dispatch {
  return (method, params) => {
    const m = active(method);
    return m ? m.outcome(dispatch(method, params)) : dispatch(method, params);
  };
}

/** Wrappers for startFixtureNetwork that follow whatever `current()` injects. */
export function fixtureWrappers(current: () => Injection): FixtureWrappers {
  return {
    grpc: (profile) => (impl) => injectedService(impl, (rpc) => current().grpc?.(profile, rpc)),
    jsonrpc: (profile) => (dispatch) => injectedDispatch(dispatch, (method) => current().jsonrpc?.(profile, method)),
  };
}

/** The protocol with its oracle's gRPC answers passed through `current().oracle`. */
export function injectedProtocol(protocol: Protocol, current: () => Injection): Protocol {
  return {
    ...protocol,
    oracle: (target) => {
      const inner = protocol.oracle(target);
      return {
        ...inner,
        async answer(pc, version) {
          const obs = await inner.answer(pc, version);
          const m = pc.case.transport === "grpc" ? current().oracle?.(pc.case.method) : undefined;
          if (!obs || !m?.messages || obs.transport !== "grpc" || obs.code !== 0) return obs;
          const output: DescMessage = CompactTxStreamer.methods.find((x) => x.name === pc.case.method)!.output;
          const decoded = obs.messages.map((b) => fromBinary(output, b));
          const messages = m.messages(decoded).map((x: AnyMessage) => toBinary(output, create(output, x)));
          return { ...obs, messages } satisfies GrpcObservation;
        },
      };
    },
  };
}
