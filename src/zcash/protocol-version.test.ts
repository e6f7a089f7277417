import { expect, test } from "@jest/globals";
import { protocolIn } from "./protocol-version.js";

test("reported versions are read with or without the v; unknown ones are neither in nor out", () => {
  expect(protocolIn("v0.4.0", ">=0.4.1")).toBe(false);
  expect(protocolIn("0.5.0", ">=0.4.1")).toBe(true);
  expect(protocolIn("v0.4.0", "<0.4.1")).toBe(true);
  expect(protocolIn("", ">=0.4.1")).toBeUndefined();
  expect(protocolIn(undefined, ">=0.4.1")).toBeUndefined();
});
