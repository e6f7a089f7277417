// One HTTP/2 session per endpoint, shared by all calls to it and replaced when it dies.
// Idle sessions are unref'd so a CLI that forgets close() still exits, as connect does.

import http2 from "node:http2";
import type { GrpcEndpoint } from "./endpoint.js";
import { nodeTlsOptions } from "./tls.js";

/** A session handed to one call; `release()` exactly once when the call ends. */
export interface SessionLease {
  session: http2.ClientHttp2Session;
  /** Whether the session finished its connection (and TLS) setup. */
  connected(): boolean;
  /** Whether the session was torn down by `abort()` on its connection. */
  aborted(): boolean;
  release(): void;
}

interface Entry {
  session: http2.ClientHttp2Session;
  connected: boolean;
  /** The server sent its HTTP/2 settings. */
  spoke: boolean;
  active: number;
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

export class GrpcConnection {
  readonly endpoint: GrpcEndpoint;
  private entry: Entry | undefined;
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
    if (entry.active === 1) entry.session.ref();
    let released = false;
    return {
      session: entry.session,
      connected: () => entry.connected,
      aborted: () => this.state === "aborted",
      release: () => {
        if (released) return;
        released = true;
        entry.active--;
        if (entry.active === 0 && !entry.session.destroyed) entry.session.unref();
      },
    };
  }

  /** Forget the current session so the next lease opens a new one (after GOAWAY etc.). */
  discard(session: http2.ClientHttp2Session): void {
    if (this.entry?.session === session) this.entry = undefined;
  }

  /** Let in-flight calls finish, then close. */
  close(): Promise<void> {
    if (this.state === "open") this.state = "closing";
    const entry = this.entry;
    this.entry = undefined;
    if (!entry || entry.session.destroyed) return Promise.resolve();
    // A server that accepted the connection but never spoke HTTP/2 would never answer a
    // graceful close: there is nothing in flight worth waiting for.
    if (!entry.spoke) {
      entry.session.destroy();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // An idle session is unref'd: without a ref, nothing would keep the process alive
      // until the close it waits for, and a CLI awaiting this would see its event loop
      // drain with the promise pending (node exits with code 13).
      entry.session.ref();
      entry.session.close(() => resolve());
    });
  }

  /** Tear down now; in-flight calls resolve with a `reset` fault. */
  abort(): void {
    this.state = "aborted";
    const entry = this.entry;
    this.entry = undefined;
    if (entry && !entry.session.destroyed) entry.session.destroy();
  }

  private live(): Entry | undefined {
    const e = this.entry;
    if (!e) return undefined;
    if (e.session.destroyed || e.session.closed) {
      this.entry = undefined;
      return undefined;
    }
    return e;
  }

  private open(): Entry {
    const url = new URL(this.endpoint.url);
    const options: http2.SecureClientSessionOptions = {
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW_BYTES },
      // Whole compact blocks can be several MiB; node's 10 MiB default session memory
      // would fail sessions that carry a few of them at once.
      maxSessionMemory: 64,
    };
    if (url.protocol === "https:") {
      Object.assign(options, nodeTlsOptions(this.endpoint), { ALPNProtocols: ["h2"] });
    }
    const session = http2.connect(url.origin, options);
    const entry: Entry = { session, connected: false, spoke: false, active: 0 };
    session.once("remoteSettings", () => {
      entry.spoke = true;
    });
    session.once("connect", () => {
      entry.connected = true;
      try {
        session.setLocalWindowSize(SESSION_WINDOW_BYTES);
      } catch {
        // The session may already be gone; the call sees that on its stream.
      }
    });
    // Errors surface on the streams that use the session; this listener only keeps an
    // unheard session error from crashing the process.
    session.on("error", () => this.discard(session));
    session.on("goaway", () => this.discard(session));
    session.on("close", () => this.discard(session));
    session.on("frameError", () => undefined);
    session.setTimeout(this.idleTimeoutMs, () => {
      if (entry.active === 0) {
        this.discard(session);
        session.close();
      }
    });
    session.unref();
    this.entry = entry;
    return entry;
  }
}
