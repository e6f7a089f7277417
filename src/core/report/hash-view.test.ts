import { describe, expect, test } from "@jest/globals";
import { hashText, withDisplayHashes } from "./hash-view.js";

const wire = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
const wireHex = wire.toString("hex");
const displayHex = Buffer.from(wire).reverse().toString("hex");

describe("hashes in decoded views", () => {
  test("a 32-byte value is shown in display order (wire reversed) beside the wire bytes", () => {
    expect(displayHex.startsWith("1f1e1d")).toBe(true);
    expect(hashText(wire.toString("base64"))).toBe(`${displayHex} (display order; wire ${wireHex})`);
  });

  test("only the named fields, only 32-byte values, at any depth", () => {
    const json = {
      height: "5",
      hash: wire.toString("base64"),
      prevHash: wire.toString("base64"),
      vtx: [{ hash: wire.toString("base64"), index: "0" }],
      short: { hash: "AAEC" },
      txid: wire.toString("base64"),
    };
    const shown = withDisplayHashes(json, new Set(["hash", "prevHash"])) as Record<string, unknown>;
    expect(shown.hash).toBe(`${displayHex} (display order; wire ${wireHex})`);
    expect(shown.prevHash).toBe(shown.hash);
    expect((shown.vtx as Record<string, unknown>[])[0]!.hash).toBe(shown.hash);
    expect((shown.short as Record<string, unknown>).hash).toBe("AAEC");
    expect(shown.txid).toBe(wire.toString("base64"));
    expect(shown.height).toBe("5");
  });
});
