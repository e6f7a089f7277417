import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startFixtureNetwork, type FixtureNetwork } from "../../zcash/fixture/network.js";
import { grpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { runWireCost, type WireBuild } from "./wirecost.js";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { wireCostLines, wireCostReport } from "./wirecost-report.js";

describe("wire cost per transport (fixture)", () => {
  let net: FixtureNetwork;
  let builds: WireBuild[];
  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference", "zaino-0.10.1"] });
    builds = net.builds().map((b) => ({ name: b.name, grpc: grpcTarget(b.grpc!), jsonrpc: jsonRpcTarget(b.jsonrpc!) }));
  });
  afterAll(async () => {
    await Promise.all(builds.flatMap((b) => [b.grpc.close(), b.jsonrpc.close()]));
    await net.close();
  });

  test("every pair is measured on every build serving both transports, with bytes and decode times", async () => {
    const { rows, skipped } = await runWireCost(builds, net.anchors, 2);
    expect(skipped).toEqual([]);
    expect(rows.map((r) => `${r.build} ${r.call}`)).toEqual(
      ["reference", "zaino-0.10.1"].flatMap((b) =>
        ["GetBlock", "getblock", "getblock", "GetTransaction", "getrawtransaction", "getrawtransaction", "GetTreeState", "z_gettreestate"].map(
          (c) => `${b} ${c}`,
        ),
      ),
    );
    const ref = rows.filter((r) => r.build === "reference");
    expect(ref.every((r) => r.status === "OK" && r.wireBytes > 0 && Number.isFinite(r.decodeMs) && r.callMs > 0)).toBe(true);
    // The full block as hex is far larger than its compact form.
    expect(ref[1]!.wireBytes).toBeGreaterThan(10 * ref[0]!.wireBytes);
    // Zaino answers getrawtransaction verbose 0 with an object: measured, reported as not decoding as hex.
    const zainoHex = rows.find((r) => r.build === "zaino-0.10.1" && r.call === "getrawtransaction" && (r.request as unknown[])[1] === 0)!;
    expect(zainoHex.decodeError).toBe("the result is an object, not hex");
    const report = wireCostReport(rows, skipped, { startedAt: new Date(), chain: "fixture", builds: [], calls: 2 });
    expect(schemaErrors("wirecost", report)).toEqual([]);
    const lines = wireCostLines(report);
    expect(lines.join("\n")).toMatch(/getblock 105 0 +OK +55,096/);
  });
});
