import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonRpcTarget, type JsonRpcTarget } from "./jsonrpc.js";
import { INPUT_LIMITS } from "../io/input-limits.js";
import { sparseFile, tooLarge } from "../io/oversized.test-helper.js";
import { closedPort } from "./test-servers.test-helper.js";

// Zebra-like server: Basic auth from a cookie, connection closed with no body when the
// credentials are wrong, and a few misbehaviours picked by method name.
let token = "tok/en+A1==";
let dir: string;
let cookieFile: string;
let server: http.Server;
let base: string;
let connections = 0;
const requests: { body: string; headers: http.IncomingHttpHeaders }[] = [];

function writeCookie(t: string): void {
  token = t;
  writeFileSync(cookieFile, `__cookie__:${t}`, { mode: 0o600 });
}

const OK_BODY = (id: unknown) => `{"result": {"b":1,  "a":"ü"},"id":${JSON.stringify(id)} ,"jsonrpc":"2.0"}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "zconform-jsonrpc-"));
  cookieFile = join(dir, ".cookie");
  writeCookie(token);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ body, headers: req.headers });
      const auth = req.headers.authorization ?? "";
      const decoded = Buffer.from(auth.replace(/^Basic /, ""), "base64").toString("utf8");
      const password = decoded.slice(decoded.indexOf(":") + 1);
      const userOk = decoded === "alice:pa:ss" || password === token;
      if (!userOk) {
        req.socket.destroy();
        return;
      }
      const json = { "content-type": "application/json; charset=utf-8" };
      const parsed = JSON.parse(body) as { id: number; method: string } | { id: number; method: string }[];
      if (Array.isArray(parsed)) {
        // "nobatch" plays a node without batches: one answer object for the whole array.
        if (parsed[0]?.method === "nobatch") res.writeHead(200, json).end(OK_BODY(null));
        else res.writeHead(200, json).end(JSON.stringify(parsed.map((c) => ({ jsonrpc: "2.0", result: c.method, id: c.id })).reverse()));
        return;
      }
      const { id, method } = parsed;
      switch (method) {
        case "html500":
          res.writeHead(500, { "content-type": "text/html" }).end("<html><body>Internal Server Error</body></html>");
          return;
        case "empty200":
          res.writeHead(200, json).end();
          return;
        case "hangup":
          req.socket.destroy();
          return;
        case "notjson":
          res.writeHead(200, json).end('{"result": [1, 2,');
          return;
        case "badutf8":
          res.writeHead(200, json).end(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
          return;
        case "wrongid":
          res.writeHead(200, json).end(OK_BODY(id + 1000));
          return;
        case "stringid":
          res.writeHead(200, json).end(OK_BODY(String(id)));
          return;
        case "textplain":
          res.writeHead(200, { "content-type": "text/plain" }).end(OK_BODY(id));
          return;
        case "rpcerror":
          res.writeHead(200, json).end(`{"jsonrpc":"2.0","id":${id},"error":{"code":-8,"message":"Block not found"}}`);
          return;
        case "big":
          res.writeHead(200, json).end(`{"jsonrpc":"2.0","id":${id},"result":"${"x".repeat(100_000)}"}`);
          return;
        case "hang":
          return;
        case "midbody":
          res.writeHead(200, json);
          res.write('{"jsonrpc":"2.0",');
          setTimeout(() => req.socket.destroy(), 20);
          return;
        default:
          res.writeHead(200, json).end(OK_BODY(id));
      }
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function withTarget<T>(fn: (t: JsonRpcTarget) => Promise<T>, endpoint?: Parameters<typeof jsonRpcTarget>[0]): Promise<T> {
  const t = jsonRpcTarget(endpoint ?? { url: base, auth: { kind: "cookie", cookieFile } }, { deadlineMs: 3000 });
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

describe("jsonrpc client", () => {
  test("sends a 2.0 envelope with a params array and keeps the body exactly", async () => {
    await withTarget(async (t) => {
      const obs = await t.call("getblockchaininfo");
      expect(obs.fault).toBeUndefined();
      expect(obs.httpStatus).toBe(200);
      expect(Buffer.from(obs.body).toString("utf8")).toBe(OK_BODY(1));
      expect(obs.wireBytes).toBe(Buffer.byteLength(OK_BODY(1)));
      expect(obs.timing.firstByteMs).toBeDefined();
      const sent = requests.at(-1)!;
      expect(sent.body).toBe('{"jsonrpc":"2.0","id":1,"method":"getblockchaininfo","params":[]}');
      expect(sent.headers["content-type"]).toBe("application/json");
      expect(sent.headers.authorization).toBe("Basic " + Buffer.from(`__cookie__:${token}`).toString("base64"));
      await t.call("getblock", ["00ab", 1]);
      expect(requests.at(-1)!.body).toBe('{"jsonrpc":"2.0","id":2,"method":"getblock","params":["00ab",1]}');
    });
  });

  test("a batch is one request, ids 0..n-1; its body is the array of answers as the server sent it", async () => {
    await withTarget(async (t) => {
      const obs = await t.batch("getblock", [
        ["1", 1],
        ["2", 1],
      ]);
      expect(obs.fault).toBeUndefined();
      expect(JSON.parse(requests.at(-1)!.body)).toEqual([
        { jsonrpc: "2.0", id: 0, method: "getblock", params: ["1", 1] },
        { jsonrpc: "2.0", id: 1, method: "getblock", params: ["2", 1] },
      ]);
      expect(JSON.parse(Buffer.from(obs.body).toString("utf8"))).toEqual([
        { jsonrpc: "2.0", result: "getblock", id: 1 },
        { jsonrpc: "2.0", result: "getblock", id: 0 },
      ]);
      const single = await t.batch("nobatch", [[]]);
      expect(single.fault).toEqual({ kind: "wrong-id", detail: "answer to a batch is not an array (no batch support?)" });
    });
  });

  test("a restarted node writes a new cookie: the next call sends its token", async () => {
    await withTarget(async (t) => {
      expect((await t.call("a")).fault).toBeUndefined();
      writeCookie("n3w-token/" + Date.now());
      expect((await t.call("b")).fault).toBeUndefined();
    });
  });

  test("a wrong cookie gets a closed connection: empty-body fault", async () => {
    const other = join(dir, "other.cookie");
    writeFileSync(other, "__cookie__:not-the-token");
    const obs = await withTarget((t) => t.call("getinfo"), { url: base, auth: { kind: "cookie", cookieFile: other } });
    expect(obs.fault?.kind).toBe("empty-body");
    expect(obs.httpStatus).toBe(0);
    expect(obs.body.length).toBe(0);
  });

  test("a missing cookie file is an unreachable fault naming the file", async () => {
    const gone = join(dir, "gone.cookie");
    writeFileSync(gone, "__cookie__:x");
    unlinkSync(gone);
    const obs = await withTarget((t) => t.call("getinfo"), { url: base, auth: { kind: "cookie", cookieFile: gone } });
    expect(obs.fault?.kind).toBe("unreachable");
    expect(obs.fault?.detail).toContain("gone.cookie");
  });

  test("a cookie file over the size limit is an unreachable fault naming the file and the limit: nothing read, nothing sent", async () => {
    const huge = sparseFile(join(dir, "huge.cookie"));
    const sent = requests.length;
    const obs = await withTarget((t) => t.call("getinfo"), { url: base, auth: { kind: "cookie", cookieFile: huge } });
    expect(obs.fault).toEqual({ kind: "unreachable", detail: `cannot read cookie file ${huge}: ${tooLarge("the cookie file", INPUT_LIMITS.cookieFileBytes)}` });
    expect(requests.length).toBe(sent);
  });

  test("user and password auth", async () => {
    const obs = await withTarget((t) => t.call("getinfo"), {
      url: base,
      auth: { kind: "basic", user: "alice", password: "pa:ss" },
    });
    expect(obs.fault).toBeUndefined();
  });

  test("a JSON-RPC error with HTTP 200 is an answer, not a fault", async () => {
    const obs = await withTarget((t) => t.call("rpcerror"));
    expect(obs.fault).toBeUndefined();
    expect(Buffer.from(obs.body).toString()).toContain('"code":-8');
  });

  const faults: [string, string, number][] = [
    ["html500", "http-status", 500],
    ["empty200", "empty-body", 200],
    ["hangup", "empty-body", 0],
    ["notjson", "invalid-json", 200],
    ["badutf8", "invalid-json", 200],
    ["wrongid", "wrong-id", 200],
    ["stringid", "wrong-id", 200],
    ["textplain", "content-type", 200],
    ["midbody", "reset", 200],
  ];
  test.each(faults)("%s → %s (HTTP %d)", async (method, kind, status) => {
    const obs = await withTarget((t) => t.call(method));
    expect(obs.fault?.kind).toBe(kind);
    expect(obs.httpStatus).toBe(status);
  });

  test("an error page keeps its body", async () => {
    const obs = await withTarget((t) => t.call("html500"));
    expect(Buffer.from(obs.body).toString()).toContain("Internal Server Error");
  });

  test("a body over maxMessageBytes is too-large", async () => {
    const obs = await withTarget((t) => t.call("big", [], { maxMessageBytes: 1000 }));
    expect(obs.fault?.kind).toBe("too-large");
    expect(obs.body.length).toBe(1000);
  });

  test("deadline gives a timeout fault", async () => {
    const obs = await withTarget((t) => t.call("hang", [], { deadlineMs: 200 }));
    expect(obs.fault?.kind).toBe("timeout");
    expect(obs.timing.totalMs).toBeGreaterThanOrEqual(190);
  });

  test("unreachable port", async () => {
    const port = await closedPort();
    const obs = await withTarget((t) => t.call("getinfo"), { url: `http://127.0.0.1:${port}` });
    expect(obs.fault?.kind).toBe("unreachable");
    expect(obs.fault?.detail).toMatch(/ECONNREFUSED/);
  });

  test("keep-alive: sequential calls share their connection instead of opening one per call", async () => {
    const opened = async (between: () => Promise<unknown>) => {
      const before = connections;
      await withTarget(async (t) => {
        for (let i = 0; i < 200; i++) {
          expect((await t.call("getinfo")).fault).toBeUndefined();
          await between();
        }
      });
      return connections - before;
    };
    // With a turn of the event loop between calls, one connection carries them all.
    expect(await opened(() => new Promise((r) => setImmediate(r)))).toBe(1);
    // Back to back, the pool may open a second while it releases the first, never more.
    expect(await opened(async () => {})).toBeLessThanOrEqual(2);
  });
});
