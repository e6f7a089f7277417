// One HTTP/2 session per endpoint, shared by all calls to it and replaced when it dies.
// Idle sessions are unref'd so a CLI that forgets close() still exits, as connect does.
//
// Nothing a server does can hold a session: closing one is bounded (a peer that never
// answers the GOAWAY is cut off after CLOSE_GRACE_MS), and a connection on which the
// server broke HTTP/2 is destroyed the moment that is known, so its calls end at once
// instead of at their deadlines. node:http2 reports some of those breaks (an 'error', a
// GOAWAY with an error code, a frame it could not send); others only show on the wire,
// as the GOAWAY nghttp2 sends (grpc-wire.ts), which is why every session's socket is
// watched.

import http2 from "node:http2";
import net from "node:net";
import tls from "node:tls";
import type { GrpcEndpoint } from "./endpoint.js";
import { debugText, describeGoaway, FRAME_NOT_SENT, frameNotSent, WireWatch, type WireLog } from "./grpc-wire.js";
import { nodeTlsOptions } from "./tls.js";

/** A session handed to one call; `release()` exactly once when the call ends. */
export interface SessionLease {
  session: http2.ClientHttp2Session;
  /** The GOAWAY and RST_STREAM frames each side sent on this connection. */
  wire: WireLog;
  /** Whether the session finished its connection (and TLS) setup. */
  connected(): boolean;
  /** Whether the session was torn down by `abort()` on its connection. */
  aborted(): boolean;
  /** Why the connection was ended as broken (who broke HTTP/2, and how), when it was. */
  broken(): string | undefined;
  /** Ends the connection as broken, for a break only a stream saw. */
  breakConnection(why: string): void;
  release(): void;
}

interface Entry {
  session: http2.ClientHttp2Session;
  /** node's native session under `session` (see keepBroken). */
  native: object | undefined;
  wire: WireWatch;
  connected: boolean;
  /** The server sent its HTTP/2 settings. */
  spoke: boolean;
  active: number;
  broken?: string;
  /** The client is closing it (close, abort, idle): its own GOAWAY is no sign of a break. */
  ending: boolean;
  /** Runs when the last call in flight is released. */
  onIdle?: () => void;
}

export interface GrpcConnectionOptions {
  /** Close a session that has carried no call for this long. Default 60 s. */
  idleTimeoutMs?: number;
}

// Flow-control windows: the stream window covers the bandwidth-delay product of a
// distant server; a larger one only means more bytes in flight that a cancelled stream
// (deadline, too-long) still has to receive and drop. The connection window lets a few
// concurrent streams run at full speed.
export const STREAM_WINDOW_BYTES = 2 * 1024 * 1024;
export const SESSION_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * How long a closing session waits, once no call is in flight, for the server to answer
 * its GOAWAY before it is destroyed. A healthy server answers in milliseconds; a frozen
 * one (its process stopped, its socket open) never does.
 */
export const CLOSE_GRACE_MS = 1_000;

export class GrpcConnection {
  readonly endpoint: GrpcEndpoint;
  private entry: Entry | undefined;
  /** Sessions whose close is under way, for abort() to cut. */
  private readonly closing = new Set<Entry>();
  private state: "open" | "closing" | "aborted" = "open";
  private readonly idleTimeoutMs: number;

  constructor(endpoint: GrpcEndpoint, opts: GrpcConnectionOptions = {}) {
    this.endpoint = endpoint;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 60_000;
  }

  get isClosed(): boolean {
    return this.state !== "open";
  }

  /** A live session for one call. Throws when closed or when TLS files cannot be read. */
  lease(): SessionLease {
    if (this.state !== "open") throw new Error("connection was closed by the caller");
    const entry = this.live() ?? this.open();
    entry.active++;
    if (entry.active === 1) hold(entry, true);
    let released = false;
    return {
      session: entry.session,
      wire: entry.wire,
      connected: () => entry.connected,
      aborted: () => this.state === "aborted",
      broken: () => entry.broken,
      breakConnection: (why) => this.breakWith(entry, why),
      release: () => {
        if (released) return;
        released = true;
        entry.active--;
        if (entry.active > 0) return;
        if (!entry.session.destroyed) hold(entry, false);
        entry.onIdle?.();
      },
    };
  }

  /** Forget the current session so the next lease opens a new one (after GOAWAY etc.). */
  discard(session: http2.ClientHttp2Session): void {
    if (this.entry?.session === session) this.entry = undefined;
  }

  /** Let in-flight calls finish (each within its deadline), then close within CLOSE_GRACE_MS. */
  close(): Promise<void> {
    if (this.state === "open") this.state = "closing";
    const entry = this.entry;
    this.entry = undefined;
    if (!entry) return Promise.resolve();
    this.closing.add(entry);
    return closeEntry(entry).finally(() => this.closing.delete(entry));
  }

  /** Tear down now, sessions being closed included; in-flight calls resolve with a `reset` fault. */
  abort(): void {
    this.state = "aborted";
    for (const entry of [this.entry, ...this.closing]) if (entry) cut(entry);
    this.entry = undefined;
  }

  private live(): Entry | undefined {
    const e = this.entry;
    if (!e) return undefined;
    if (e.session.destroyed || e.session.closed || e.broken !== undefined) {
      this.entry = undefined;
      return undefined;
    }
    return e;
  }

  /**
   * The connection is broken: no call may use it again, and the calls on it end now.
   * `explains`: the client's own GOAWAY with an error code, read off the wire. nghttp2 may
   * refuse a frame of ours (a frameError) a moment before that GOAWAY is written, on a
   * busy machine; the GOAWAY says what broke, so it replaces the earlier reason, which the
   * calls read only once their streams closed.
   */
  private breakWith(entry: Entry, why: string, explains = false): void {
    if (entry.ending) return;
    if (entry.broken !== undefined) {
      if (explains && entry.broken.startsWith(FRAME_NOT_SENT)) entry.broken = why;
      return;
    }
    entry.broken = why;
    this.discard(entry.session);
    // Not from inside node's own frame handling, which may be what called us.
    setImmediate(() => entry.session.destroy());
  }

  private open(): Entry {
    const url = new URL(this.endpoint.url);
    const secure = url.protocol === "https:";
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const port = Number(url.port || (secure ? 443 : 80));
    const socket = secure
      ? tls.connect({ host, port, ALPNProtocols: ["h2"], ...(net.isIP(host) ? {} : { servername: host }), ...nodeTlsOptions(this.endpoint) })
      : net.connect({ host, port });
    socket.setNoDelay(true);
    let entry: Entry | undefined;
    const wire = new WireWatch(socket, (goaway) => {
      if (entry && goaway.code !== 0) this.breakWith(entry, `the client ended the connection with ${describeGoaway(goaway)}: the server broke HTTP/2`, true);
    });
    const session = http2.connect(url.origin, {
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW_BYTES },
      // Whole compact blocks can be several MiB; node's 10 MiB default session memory
      // would fail sessions that carry a few of them at once.
      maxSessionMemory: 64,
      createConnection: () => wire,
    });
    const e: Entry = { session, native: nativeSession(session), wire, connected: false, spoke: false, active: 0, ending: false };
    entry = e;
    socket.once(secure ? "secureConnect" : "connect", () => {
      e.connected = true;
    });
    session.once("remoteSettings", () => {
      e.spoke = true;
    });
    session.once("connect", () => {
      try {
        session.setLocalWindowSize(SESSION_WINDOW_BYTES);
      } catch {
        // The session may already be gone; the call sees that on its stream.
      }
    });
    // Errors surface on the streams that use the session; these listeners name what
    // broke the connection and keep an unheard session error from crashing the process.
    session.on("error", (err: Error & { code?: string }) => {
      // A GOAWAY with an error code is named by its own listener; a socket error
      // (refused, reset, TLS) is no HTTP/2 break and is read from the stream's error.
      if (err.code?.startsWith("ERR_HTTP2_") && err.code !== "ERR_HTTP2_SESSION_ERROR") {
        this.breakWith(e, `the client ended the connection: ${err.code}: ${err.message}`);
      }
      this.discard(session);
    });
    session.on("goaway", (code: number, lastStreamId: number, data?: Buffer) => {
      if (code !== 0) {
        this.breakWith(e, `the server sent ${describeGoaway({ code, lastStreamId, debug: debugText(data ?? new Uint8Array(0)) })}`);
      }
      this.discard(session);
    });
    session.on("close", () => {
      this.discard(session);
      if (e.broken !== undefined) keepBroken(e);
    });
    session.on("frameError", (type: number, code: number) => {
      // After the server's GOAWAY, a frame it no longer takes is no break: node closes the session.
      if (!wire.server.goaway) this.breakWith(e, frameNotSent(type, code));
    });
    session.setTimeout(this.idleTimeoutMs, () => {
      if (e.active === 0) {
        this.discard(session);
        void closeEntry(e);
      }
    });
    hold(e, false);
    this.entry = e;
    return e;
  }
}

/**
 * node 20 aborts the whole process when the garbage collector frees a native HTTP/2
 * session that nghttp2 broke off with memory still counted against it (node_http2.cc,
 * ~Http2Session: `current_nghttp2_memory_ == 0`); seen here within a few hundred
 * connections to peers that break HTTP/2 on a loaded machine (test/tools/broken-peer-gc.ts).
 * A run would die with no report written. The native session of each connection a peer
 * broke is therefore kept referenced for the life of the process, never freed: a few KiB
 * per broken connection.
 */
const brokenNativeSessions: object[] = [];

function keepBroken(entry: Entry): void {
  if (entry.native) brokenNativeSessions.push(entry.native);
  entry.native = undefined;
}

/** The native session node keeps under a ClientHttp2Session (an own symbol property), while it has one. */
function nativeSession(session: http2.ClientHttp2Session): object | undefined {
  const key = Object.getOwnPropertySymbols(session).find((k) => k.description === "kHandle");
  const handle: unknown = key ? (session as unknown as Record<symbol, unknown>)[key] : undefined;
  return typeof handle === "object" && handle !== null ? handle : undefined;
}

/**
 * Whether a session keeps the process alive: only while a call is in flight. The socket
 * under the watch is the handle that counts.
 */
function hold(entry: Entry, on: boolean): void {
  if (on) {
    entry.session.ref();
    entry.wire.underlying.ref();
  } else {
    entry.session.unref();
    entry.wire.underlying.unref();
  }
}

/** Ends a connection at once: the session and the socket under it. */
function cut(entry: Entry): void {
  entry.ending = true;
  entry.session.destroy();
  entry.wire.destroy();
}

/**
 * A graceful close, bounded: CLOSE_GRACE_MS after the last call in flight ended, the
 * connection is cut. (node's graceful close ends with a FIN and waits for the peer's,
 * which a stopped peer never sends: the session already counts as destroyed then, so
 * the socket is cut too.)
 */
function closeEntry(entry: Entry): Promise<void> {
  const session = entry.session;
  if (session.destroyed && entry.wire.destroyed) return Promise.resolve();
  entry.ending = true;
  // A server that accepted the connection but never spoke HTTP/2 would never answer a
  // graceful close: there is nothing in flight worth waiting for.
  if (!entry.spoke) {
    cut(entry);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    // An idle session is unref'd: without a ref, nothing would keep the process alive
    // until the close it waits for, and a CLI awaiting this would see its event loop
    // drain with the promise pending (node exits with code 13).
    hold(entry, true);
    entry.wire.once("close", done);
    const bound = (): void => {
      timer = setTimeout(() => {
        cut(entry);
        done();
      }, CLOSE_GRACE_MS);
    };
    if (entry.active === 0) bound();
    else entry.onIdle = bound;
    session.close();
  });
}
