import { describe, expect, test } from "@jest/globals";
import { nodeFromSubversion } from "./node-identity.js";

describe("the node a server reports behind it", () => {
  test("zebrad and zcashd user agents, as real servers send them", () => {
    // What real lightwalletd v0.5.4, zainod and zebrad answered over zebrad 7.0.0 (golden/regtest/*/GetLightdInfo/info.json).
    expect(nodeFromSubversion("/Zebra:7.0.0/")).toEqual({ implementation: "zebrad", version: "7.0.0" });
    expect(nodeFromSubversion("/MagicBean:6.2.0/")).toEqual({ implementation: "zcashd", version: "6.2.0" });
    expect(nodeFromSubversion("/MagicBean:5.4.2(bitcore)/")).toEqual({ implementation: "zcashd", version: "5.4.2" });
  });

  test("an agent it does not know, or none, names no node", () => {
    expect(nodeFromSubversion("/Satoshi:25.0.0/")).toBeUndefined();
    expect(nodeFromSubversion("")).toBeUndefined();
    expect(nodeFromSubversion(undefined)).toBeUndefined();
    expect(nodeFromSubversion("Zebra 7.0.0")).toBeUndefined();
  });
});
