// What speaks on a port that closed a plaintext call on its first answer. An h2c call
// to a TLS server or to an HTTP/1.1 server (a JSON-RPC or web port), and an HTTP/1.1
// call to a TLS server, all end the same way to the client: the connection closes
// before an answer. One look at the port tells them apart, so the preflight's line can
// name the fix ("use https://", "this is not a gRPC port") instead of guessing.

import { connect as tcpConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { afterArrived } from "../targets/client-clock.js";

/** "tls": TLS speaks there; "not-h2c": the port answers an HTTP/2 preface with anything but HTTP/2. */
export type Speaks = "tls" | "not-h2c";

// Both looks run at once and end within this: an interrupted run ends within 2 s.
const PROBE_MS = 1_000;
// An HTTP/2 client's preface and its (empty) SETTINGS frame: an h2c server answers with
// a SETTINGS frame of its own; an HTTP/1.1 server with a 400, or by closing.
const H2_PREFACE = Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]);
const SETTINGS = 4;

/** What speaks at url's host and port, when a look tells; undefined when it does not (silence, or what was asked for). */
export async function whatSpeaks(url: URL, o: { h2c: boolean }): Promise<Speaks | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || 80);
  const [tls, h2c] = await Promise.all([speaksTls(host, port), o.h2c ? speaksH2c(host, port) : undefined]);
  if (tls === true) return "tls";
  if (h2c === false) return "not-h2c";
  return undefined;
}

/** Opens a socket and lets `settle` decide; undefined when nothing decides within PROBE_MS. */
function probe(open: () => Socket, settle: (socket: Socket, done: (v: boolean) => void) => void): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    const socket = open();
    const done = (v: boolean | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(v);
    };
    const timer = afterArrived(() => done(undefined), PROBE_MS);
    settle(socket, done);
  });
}

function speaksTls(host: string, port: number): Promise<boolean | undefined> {
  return probe(
    () => tlsConnect({ host, port, rejectUnauthorized: false, ...(isIP(host) ? {} : { servername: host }) }),
    (socket, done) => {
      socket.once("secureConnect", () => done(true));
      // An alert is the server's TLS (a client certificate it wants, say); anything else is not.
      socket.once("error", (e: NodeJS.ErrnoException) => done(/ALERT/.test(String(e.code ?? ""))));
    },
  );
}

function speaksH2c(host: string, port: number): Promise<boolean | undefined> {
  return probe(
    () => tcpConnect({ host, port }),
    (socket, done) => {
      let got = Buffer.alloc(0);
      socket.once("connect", () => socket.write(H2_PREFACE));
      // The first 9 bytes are a frame header, its type in byte 3, when HTTP/2 answers.
      socket.on("data", (b: Buffer) => {
        got = Buffer.concat([got, b]);
        if (got.length >= 9) done(got[3] === SETTINGS);
      });
      socket.once("end", () => done(false));
      socket.once("error", () => done(false));
    },
  );
}
