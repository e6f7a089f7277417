// The JSON-RPC method lists hold to their sources: each real version's list is the
// `#[method(name = …)]` entries of the trait it cites, in the crate version its pinned
// build's Cargo.lock names, read where cargo left that crate on this machine (a
// `npm run real:install` puts it there; where it is absent the check is skipped, saying
// so); and the corpus's list and its Zaino-only and Zebra-only marks follow from them.

import { describe, expect, test } from "@jest/globals";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { JSONRPC_METHODS, JSONRPC_SERVED_BY, type JsonRpcServed } from "./jsonrpc-methods.js";
import { loadPins } from "./real/pins.js";

const PIN_NAME: Record<string, string> = { zaino: "zainod", zebrad: "zebrad" };
const pins = loadPins();

const registry = join(process.env.CARGO_HOME || join(homedir(), ".cargo"), "registry", "src");
const crateDir = (name: string, version: string) =>
  (existsSync(registry) ? readdirSync(registry) : []).map((i) => join(registry, i, `${name}-${version}`)).find((d) => existsSync(d));

/** The method names of `trait <name>` in a Rust file, in declaration order. */
function traitMethods(text: string, trait: string): string[] {
  const start = text.search(new RegExp(`\\btrait ${trait}\\b`));
  if (start < 0) return [];
  const body = text.slice(start, text.indexOf("\n}\n", start));
  return [...body.matchAll(/#\[method\(name = "([^"]+)"/g)].map((m) => m[1]!);
}

const served = (implementation: string, version: string) => JSONRPC_SERVED_BY.find((s) => s.implementation === implementation && s.version === version)!;

describe("which JSON-RPC methods each real version serves", () => {
  test("every list speaks for a pinned build of real-servers.yaml", () => {
    const unpinned = JSONRPC_SERVED_BY.filter((s) => !pins.some((p) => p.name === PIN_NAME[s.implementation] && p.version === s.version));
    expect(unpinned.map((s) => `${s.implementation} ${s.version}`)).toEqual([]);
  });

  test("zainod 0.10.1 serves zainod 0.9.0's 27 methods and getaddressdeltas", () => {
    const [newer, older] = [served("zaino", "0.10.1").methods, served("zaino", "0.9.0").methods];
    expect([newer.length, older.length]).toEqual([28, 27]);
    expect(newer.filter((m) => !older.includes(m))).toEqual(["getaddressdeltas"]);
    expect(older.filter((m) => !newer.includes(m))).toEqual([]);
  });

  test("the corpus's methods are zainod 0.10.1's and Zebra's getblockhash; the marks say who lacks which", () => {
    const zaino = served("zaino", "0.10.1").methods;
    const zebra = served("zebrad", "7.0.0").methods;
    expect(JSONRPC_METHODS.map((m) => m.name)).toEqual([...zaino, "getblockhash"]);
    for (const m of JSONRPC_METHODS) {
      expect([m.name, m.zainoOnly === true, m.zebraOnly === true]).toEqual([m.name, !zebra.includes(m.name), !zaino.includes(m.name)]);
    }
  });

  const readable = (s: JsonRpcServed) => crateDir(s.source.crate, s.source.version) !== undefined;
  const here = JSONRPC_SERVED_BY.filter(readable);
  const away = JSONRPC_SERVED_BY.filter((s) => !readable(s)).map((s) => `${s.source.crate} ${s.source.version}`);
  if (away.length > 0) console.warn(`not checked against their source here, cargo has not fetched them: ${away.join(", ")}`);
  (here.length > 0 ? test.each(here.map((s) => [`${s.implementation} ${s.version}`, s] as const)) : test.skip.each([["none", undefined]]))(
    "%s: the list is the cited trait's methods, in the crate version the build locks",
    (_, s) => {
      const { crate, version, file, symbol } = s!.source;
      const text = readFileSync(join(crateDir(crate, version)!, file), "utf8");
      expect(traitMethods(text, symbol)).toEqual(s!.methods);
      const lockDir = crateDir(PIN_NAME[s!.implementation]!, s!.version);
      if (lockDir && existsSync(join(lockDir, "Cargo.lock"))) {
        expect(readFileSync(join(lockDir, "Cargo.lock"), "utf8")).toContain(`[[package]]\nname = "${crate}"\nversion = "${version}"\n`);
      }
    },
  );

  test("the trait reader finds the methods of the named trait only, in order", () => {
    const text = [
      "pub trait Other {",
      '    #[method(name = "elsewhere")]',
      "    fn a();",
      "}",
      "#[rpc(server)]",
      "pub trait Rpc {",
      '    #[method(name = "getinfo")]',
      "    fn b();",
      '    #[method(name = "rpc.discover")]',
      "    fn c();",
      "}",
      '#[method(name = "after")]',
      "",
    ].join("\n");
    expect(traitMethods(text, "Rpc")).toEqual(["getinfo", "rpc.discover"]);
    expect(traitMethods(text, "Missing")).toEqual([]);
  });
});
