import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { basicHeader } from "./auth.js";
import { MAX_ALIASES } from "../io/located-yaml.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { ConfigError, describeEndpoint, isInsecure, loadConfig, parseConfig, redact, secretsOf, type RunConfig } from "./config.js";

const FILE = "zconform.config.yaml";
let dir: string;
const env = { ZAINO_RPC_PASSWORD: "hunter2-zaino", API_KEY: "key-abc-123" };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "zconform-config-"));
  writeFileSync(join(dir, "ca.pem"), "-----BEGIN CERTIFICATE-----\n");
  writeFileSync(join(dir, ".cookie"), "__cookie__:c00kie/T0ken+xyz=");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXAMPLE = `# example
chain: testnet
oracle:
  jsonrpc: { url: http://127.0.0.1:18232, cookieFile: ~/.cache/zebra/.cookie }
defaults: { concurrency: 8, deadlineMs: 30000, maxMessageBytes: 16777216, maxStreamMessages: 10000000 }
builds:
  - name: zaino
    implementation: zaino
    version: 0.10.1
    protocolVersion: v0.4.0
    grpc: { url: "https://zaino.example:8137", caFile: ./ca.pem }
    jsonrpc: { url: http://127.0.0.1:8237, user: zaino, password: \${ZAINO_RPC_PASSWORD} }
    concurrency: 4
    deadlineMs: 10000
  - name: lwd
    implementation: lightwalletd
    version: 1.10
    grpc:
      url: https://lwd.example:9067
      insecureSkipVerify: true
      headers: { X-Api-Key: \${API_KEY}, x-client: zconform-ci }
      public: [X-Client]
  - name: local-zebra
    implementation: zebrad
    jsonrpc: { url: http://127.0.0.1:18232, cookieFile: .cookie }
  - name: zaino-0.9.0
    implementation: zaino
    emulated: true
    profile: zaino-0.9.0
    grpc: { url: http://127.0.0.1:1 }
`;

function parse(text: string, e: Record<string, string> = env): RunConfig {
  return parseConfig(text, FILE, lightwalletProtocol, { env: e, baseDir: dir });
}

function problemsOf(text: string, e: Record<string, string> = env): string[] {
  try {
    parse(text, e);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => `${p.file}:${p.line}: ${p.field ? p.field + ": " : ""}${p.message}`);
  }
  throw new Error("expected a ConfigError");
}

describe("valid config", () => {
  test("the documented example parses into resolved builds", () => {
    const c = parse(EXAMPLE);
    expect(c.chain).toBe("testnet");
    expect(c.file).toBe(FILE);
    expect(c.oracle?.jsonrpc).toEqual({
      url: "http://127.0.0.1:18232",
      auth: { kind: "cookie", cookieFile: join(homedir(), ".cache/zebra/.cookie") },
    });
    expect(c.oracle?.source.line).toBe(3);
    expect(c.defaults).toEqual({
      concurrency: 8,
      deadlineMs: 30000,
      maxMessageBytes: 16777216,
      maxCallBytes: 64 * 1024 * 1024,
      maxStreamMessages: 10000000,
      unresponsiveAfter: 3,
    });
    const [zaino, lwd, zebra, emu] = c.builds;
    expect(zaino).toMatchObject({
      name: "zaino",
      implementation: "zaino",
      version: "0.10.1",
      protocolVersion: "v0.4.0",
      concurrency: 4,
      deadlineMs: 10000,
      maxMessageBytes: 16777216,
      emulated: false,
      source: { file: FILE, line: 7 },
    });
    expect(zaino!.grpc).toEqual({ url: "https://zaino.example:8137", caFile: join(dir, "ca.pem") });
    expect(zaino!.jsonrpc?.auth).toEqual({ kind: "basic", user: "zaino", password: "hunter2-zaino" });
    expect(lwd!.version).toBe("1.10");
    expect(lwd!.concurrency).toBe(8);
    expect(lwd!.grpc?.headers).toEqual({ "x-api-key": "key-abc-123", "x-client": "zconform-ci" });
    expect(isInsecure(lwd!.grpc!)).toBe(true);
    expect(isInsecure(zaino!.grpc!)).toBe(false);
    expect(zebra!.jsonrpc?.auth).toEqual({ kind: "cookie", cookieFile: join(dir, ".cookie") });
    expect(emu).toMatchObject({ emulated: true, profile: "zaino-0.9.0" });
  });

  test("built-in limits apply without defaults", () => {
    const c = parse("chain: fixture\nbuilds:\n  - { name: a, implementation: other, grpc: { url: 'http://h:1' } }\n");
    expect(c.builds[0]).toMatchObject({
      concurrency: 4,
      deadlineMs: 30000,
      maxMessageBytes: 16 * 1024 * 1024,
      maxCallBytes: 64 * 1024 * 1024,
      maxStreamMessages: 100_000,
    });
  });

  test("$${ is a literal ${ and numbers-looking passwords keep their text", () => {
    const c = parse(
      "chain: fixture\nbuilds:\n  - name: a\n    implementation: other\n    jsonrpc: { url: 'http://h:1', user: u, password: 0123 }\n    grpc: { url: 'http://h:2', headers: { x-note: 'a $${b}' } }\n",
    );
    expect(c.builds[0]!.jsonrpc?.auth).toEqual({ kind: "basic", user: "u", password: "0123" });
    expect(c.builds[0]!.grpc?.headers).toEqual({ "x-note": "a ${b}" });
  });

  test("${VAR} works unquoted in block style and inside longer strings", () => {
    const c = parse(
      "chain: fixture\nbuilds:\n  - name: a\n    implementation: other\n    grpc:\n      url: https://${HOST}:9067/\n      bearerToken: ${API_KEY}\n",
      {
        ...env,
        HOST: "lwd.example",
      },
    );
    expect(c.builds[0]!.grpc).toEqual({ url: "https://lwd.example:9067/", auth: { kind: "bearer", token: "key-abc-123" } });
  });

  test("credentials in the URL move into basic auth", () => {
    const c = parse("chain: fixture\nbuilds:\n  - { name: a, implementation: other, jsonrpc: { url: 'http://bob:s%40cret@h:18232' } }\n");
    expect(c.builds[0]!.jsonrpc).toEqual({ url: "http://h:18232", auth: { kind: "basic", user: "bob", password: "s@cret", userInUrl: true } });
  });

  test("loadConfig reads a file and resolves paths against its directory", () => {
    const file = join(dir, FILE);
    writeFileSync(file, EXAMPLE);
    const c = loadConfig(file, lightwalletProtocol, { env });
    expect(c.builds[0]!.grpc?.caFile).toBe(join(dir, "ca.pem"));
    expect(() => loadConfig(join(dir, "missing.yaml"), lightwalletProtocol)).toThrow(ConfigError);
  });
});

describe("builds backed by a node of their own", () => {
  const text = (extra: string, node = "zcashd") => `chain: mainnet
oracle:
  jsonrpc: { url: http://127.0.0.1:8232, cookieFile: .cookie }
nodeOracles:
  zcashd: { jsonrpc: { url: "http://127.0.0.1:18232", user: rpc, password: \${ZAINO_RPC_PASSWORD} } }
builds:
  - name: lwd-on-zcashd
    implementation: lightwalletd
    oracle: ${node}
    grpc: { url: http://127.0.0.1:9067 }
${extra}`;

  test("each names its node; the node's endpoint is read as the oracle's, and its secrets are masked", () => {
    const c = parse(text(""));
    expect(c.builds[0]!.oracle).toBe("zcashd");
    expect(c.nodeOracles?.zcashd?.jsonrpc).toMatchObject({ url: "http://127.0.0.1:18232", auth: { kind: "basic", user: "rpc" } });
    expect(secretsOf(c)).toContain(env.ZAINO_RPC_PASSWORD);
  });

  test("a node the config does not name, or a node without the run's oracle, is an error at the build's line", () => {
    expect(problemsOf(text("", "zebra"))).toEqual([`${FILE}:9: builds[0].oracle: names no node of nodeOracles (known: zcashd)`]);
    expect(problemsOf(text("").replace(/^oracle:\n.*\n/m, ""))).toEqual([
      `${FILE}:7: builds[0].oracle: a build backed by its own node needs the run's oracle too (oracle.jsonrpc)`,
    ]);
  });
});

describe("errors name file, line and field", () => {
  const base = (build: string) => `chain: fixture\nbuilds:\n${build}`;

  test("a bad URL, in the message format users see", () => {
    const text = base(
      "  - name: a\n    implementation: other\n    grpc: { url: 'http://h:1' }\n  - name: b\n    implementation: zaino\n    grpc: { url: 'zaino:8137' }\n    jsonrpc: { url: 'ftp://x' }\n",
    );
    expect(() => parse(text)).toThrow(
      [`${FILE}:8: builds[1].grpc.url: must be a URL (http:// or https://)`, `${FILE}:9: builds[1].jsonrpc.url: must be a URL (http:// or https://)`].join(
        "\n",
      ),
    );
  });

  test("a build's implementation is one of the protocol's, whatever protocol is passed", () => {
    const text = base("  - name: a\n    implementation: zaino\n    grpc: { url: 'http://h:1' }\n");
    expect(parse(text).builds[0]!.implementation).toBe("zaino");
    const other = { implementations: ["alpha", "beta"] };
    expect(() => parseConfig(text, FILE, other, { env })).toThrow(`${FILE}:4: builds[0].implementation: must be one of alpha, beta`);
    expect(parseConfig(text.replace("zaino", "beta"), FILE, other, { env }).builds[0]!.implementation).toBe("beta");
  });

  test("maxRunBytes is the run's: read from defaults, unknown on a build", () => {
    const build = "  - { name: a, implementation: other, grpc: { url: 'http://h:1' } }\n";
    expect(parse(`chain: fixture\ndefaults: { maxRunBytes: 1048576 }\nbuilds:\n${build}`).maxRunBytes).toBe(1048576);
    expect(parse(base(build)).maxRunBytes).toBeUndefined();
    expect(problemsOf(base("  - { name: a, implementation: other, maxRunBytes: 5, grpc: { url: 'http://h:1' } }\n"))).toEqual([
      `${FILE}:3: builds[0].maxRunBytes: is not a known field`,
    ]);
  });

  test("a build without endpoints", () => {
    expect(problemsOf(base("  - name: a\n    implementation: other\n"))).toEqual([`${FILE}:3: builds[0]: needs a grpc or a jsonrpc endpoint (or both)`]);
  });

  test("an unknown field points at its key, with a hint", () => {
    expect(problemsOf(base("  - name: a\n    implementation: other\n    jsonrpc:\n      url: http://h:1\n      cookie_file: x\n"))).toEqual([
      `${FILE}:7: builds[0].jsonrpc.cookie_file: is not a known field (did you mean cookieFile?)`,
    ]);
  });

  test("a missing required field names the field at its map", () => {
    expect(problemsOf(base("  - implementation: other\n    grpc: { url: 'http://h:1' }\n"))).toEqual([`${FILE}:3: builds[0].name: is required`]);
    expect(problemsOf("builds: []\n")).toEqual([`${FILE}:1: chain: is required`, `${FILE}:1: builds: must be a list with at least one build`]);
  });

  test("wrong types and values", () => {
    const text = [
      "chain: fixture",
      "defaults:",
      "  deadlineMs: fast",
      "  concurrency: 0",
      "builds:",
      "  - name: 'bad name'",
      "    implementation: lwd",
      "    protocolVersion: latest",
      "    grpc: { url: 'http://h:1', insecureSkipVerify: yes }",
      "  - just-a-string",
      "",
    ].join("\n");
    expect(problemsOf(text)).toEqual([
      `${FILE}:3: defaults.deadlineMs: must be a whole number from 1 to 86400000`,
      `${FILE}:4: defaults.concurrency: must be a whole number from 1 to 1024`,
      `${FILE}:6: builds[0].name: must be a name of letters, digits, '.', '_' and '-'`,
      `${FILE}:7: builds[0].implementation: must be one of lightwalletd, zaino, ztreamer, zebrad, other`,
      `${FILE}:8: builds[0].protocolVersion: must be a lightwallet-protocol version such as v0.4.0`,
      `${FILE}:9: builds[0].grpc.insecureSkipVerify: must be true or false`,
      `${FILE}:10: builds[1]: must be a map of fields`,
    ]);
  });

  test("an unset environment variable names the line, once", () => {
    expect(problemsOf(base("  - name: a\n    implementation: other\n    grpc: { url: '${NODE_URL}' }\n"), {})).toEqual([
      `${FILE}:5: builds[0].grpc.url: environment variable NODE_URL is not set`,
    ]);
  });

  test("semantic checks: duplicates, TLS on http, auth conflicts, emulation, missing CA", () => {
    const text = [
      "chain: fixture",
      "builds:",
      "  - name: a",
      "    implementation: other",
      "    grpc: { url: 'http://h:1', caFile: ca.pem, insecureSkipVerify: true }",
      "  - name: a",
      "    implementation: other",
      "    jsonrpc: { url: 'http://h:2', user: u, password: p, cookieFile: c }",
      "  - name: c",
      "    implementation: other",
      "    emulated: true",
      "    grpc: { url: 'https://h:3', caFile: nowhere.pem }",
      "  - name: d",
      "    implementation: other",
      "    profile: zaino",
      "    jsonrpc: { url: 'http://h:4', password: p }",
      "",
    ].join("\n");
    expect(problemsOf(text)).toEqual([
      `${FILE}:5: builds[0].grpc.caFile: only applies to https:// URLs`,
      `${FILE}:5: builds[0].grpc.insecureSkipVerify: only applies to https:// URLs`,
      `${FILE}:6: builds[1].name: duplicate build name "a" (also builds[0])`,
      `${FILE}:8: builds[1].jsonrpc.cookieFile: use one way to authenticate: user/password, bearerToken, cookieFile or credentials in the URL`,
      `${FILE}:11: builds[2].profile: is required when emulated is true`,
      `${FILE}:12: builds[2].grpc.caFile: file not found: ${join(dir, "nowhere.pem")}`,
      `${FILE}:15: builds[3].profile: only applies to emulated builds (emulated: true)`,
      `${FILE}:16: builds[3].jsonrpc.password: needs user as well`,
    ]);
  });

  test("YAML syntax errors and duplicate keys", () => {
    expect(problemsOf("chain: fixture\nbuilds:\n  - name: [unclosed\n")[0]).toMatch(new RegExp(`^${FILE}:\\d+: YAML syntax: `));
    expect(problemsOf("chain: a\nchain: b\nbuilds: []\n")[0]).toBe(`${FILE}:2: chain: duplicate key (first on line 1)`);
    expect(problemsOf("")).toEqual([`${FILE}:1: the file is empty`]);
    expect(problemsOf("- a\n")).toEqual([`${FILE}:1: must be a map of fields`]);
  });

  test("ConfigError's message lists every problem on its own line", () => {
    try {
      parse("chain: 'x y'\nbuilds: 3\n");
      throw new Error("no error");
    } catch (e) {
      expect((e as Error).message.split("\n")).toHaveLength(2);
    }
  });
});

describe("secrets", () => {
  test("describeEndpoint drops userinfo", () => {
    expect(describeEndpoint("https://u:p@host:443/x")).toBe("https://host/x");
    expect(describeEndpoint("https://gw.example/rpc?apikey=s3cret#frag")).toBe("https://gw.example/rpc?…");
    expect(describeEndpoint({ url: "http://a:b@127.0.0.1:8232" })).toBe("http://127.0.0.1:8232");
    expect(describeEndpoint("not a url u:p@x")).toBe("not a url u:p@x");
  });

  test("no secret survives redact(JSON.stringify(config))", () => {
    const c = parse(EXAMPLE.replace("password: ${ZAINO_RPC_PASSWORD}", 'password: "quo\\"te-${ZAINO_RPC_PASSWORD}"'));
    const secrets = secretsOf(c);
    expect(secrets).toEqual(
      expect.arrayContaining([
        'quo"te-hunter2-zaino',
        "key-abc-123",
        "c00kie/T0ken+xyz=",
        basicHeader("__cookie__", "c00kie/T0ken+xyz="),
        basicHeader("zaino", 'quo"te-hunter2-zaino'),
      ]),
    );
    expect(secrets).not.toContain("zconform-ci");
    const json = JSON.stringify(c);
    expect(json).toContain("hunter2-zaino");
    const clean = redact(json, secrets);
    for (const s of ["hunter2", "key-abc-123"]) expect(clean).not.toContain(s);
    expect(clean).toContain("zconform-ci");
    const log = `sent authorization: ${basicHeader("__cookie__", "c00kie/T0ken+xyz=")} to ${encodeURIComponent("c00kie/T0ken+xyz=")}`;
    expect(redact(log, secrets)).toBe("sent authorization: *** to ***");
  });

  test("the user name in a URL is a secret, unless the endpoint lists url-user as public; a user field's is not", () => {
    const build = (jsonrpc: string) => parse(`chain: fixture\nbuilds:\n  - { name: a, implementation: other, jsonrpc: ${jsonrpc} }\n`);
    expect(secretsOf(build("{ url: 'http://acct-7f3a:pw-0011@h:1' }"))).toEqual(expect.arrayContaining(["acct-7f3a", "pw-0011"]));
    expect(secretsOf(build("{ url: 'http://acct-7f3a:pw-0011@h:1', public: [url-user] }"))).not.toContain("acct-7f3a");
    expect(secretsOf(build("{ url: 'http://h:1', user: acct-7f3a, password: pw-0011 }"))).not.toContain("acct-7f3a");
  });
});

// Found by fuzzing (test/fuzz/config-loader.test.ts): each of these crashed or hung the
// loader instead of giving a ConfigError.
describe("hostile YAML and malformed values", () => {
  const head = "chain: fixture\nbuilds:\n  - { name: a, implementation: other, grpc: { url: 'http://h:1' } }\n";

  test("an alias bomb is cut off after MAX_ALIASES aliases, quickly", () => {
    const bomb = ["extra:", "  - &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < 9; i++) bomb.push(`  - &b${i} [${Array.from({ length: 10 }, () => `*b${i - 1}`).join(", ")}]`);
    const t0 = performance.now();
    const problems = problemsOf(head + bomb.join("\n") + "\n");
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(problems).toContain(`${FILE}:6: extra[2][8][1]: more than ${MAX_ALIASES} YAML aliases (*name); write the values out`);
  });

  test("an alias to its own container is a problem, not endless recursion", () => {
    expect(problemsOf(head + "extra: &loop [1, *loop]\n")).toContain(`${FILE}:4: extra[1]: YAML alias *loop refers to a map or list that contains it`);
  });

  test("credentials in the URL that are not valid percent-encoding", () => {
    const problems = problemsOf("chain: fixture\nbuilds:\n  - { name: a, implementation: other, jsonrpc: { url: 'http://me:s3cret%4@h:1' } }\n");
    expect(problems).toEqual([`${FILE}:3: builds[0].jsonrpc.url: the user or password in the URL is not valid percent-encoding`]);
    expect(problems.join()).not.toContain("s3cret");
  });

  test("a broken ${ in a password is reported without quoting the password", () => {
    const problems = problemsOf(
      "chain: fixture\nbuilds:\n  - { name: a, implementation: other, jsonrpc: { url: 'http://h:1', user: u, password: 'pa55-${word' } }\n",
    );
    expect(problems).toEqual([`${FILE}:3: builds[0].jsonrpc.password: invalid \${…} reference (names are letters, digits and _)`]);
    // Other fields still quote the text, which helps to find the typo.
    expect(problemsOf("chain: fixture\nbuilds:\n  - { name: a, implementation: other, version: 'v${x', grpc: { url: 'http://h:1' } }\n").join()).toContain(
      'invalid ${…} reference in "v${x"',
    );
  });
});
