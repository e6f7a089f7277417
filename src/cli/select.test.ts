import { describe, expect, test } from "@jest/globals";
import type { Case } from "../core/corpus/case.js";
import { nearest, SelectionError, selectCases } from "./select.js";

const kase = (id: string): Case => ({ id, method: id.split("/")[0]! }) as Case;
const CORPUS = ["GetBlock/at-5", "GetBlock/tip", "GetBlockRange/tip", "GetLatestBlock/latest", "getblock/raw-5"].map(kase);
const ids = (cs: Case[]) => cs.map((c) => c.id);

describe("selectCases", () => {
  test("patterns and methods narrow the corpus as before", () => {
    expect(ids(selectCases(CORPUS, {}))).toEqual(ids(CORPUS));
    expect(ids(selectCases(CORPUS, { case: ["GetBlock/*"] }))).toEqual(["GetBlock/at-5", "GetBlock/tip"]);
    expect(ids(selectCases(CORPUS, { method: ["GetBlockRange"] }))).toEqual(["GetBlockRange/tip"]);
  });

  test("a bare case name selects the case when it is unique across methods", () => {
    expect(ids(selectCases(CORPUS, { case: ["latest"] }))).toEqual(["GetLatestBlock/latest"]);
    expect(ids(selectCases(CORPUS, { case: ["tip"], method: ["GetBlock"] }))).toEqual(["GetBlock/tip"]);
  });

  test("a bare name shared by several methods lists the candidates", () => {
    expect(() => selectCases(CORPUS, { case: ["tip"] })).toThrow(
      new SelectionError("--case tip: 2 cases have this name; pick one: GetBlock/tip, GetBlockRange/tip"),
    );
  });

  test("a method no case has is an error with the nearest names", () => {
    expect(() => selectCases(CORPUS, { method: ["GetBlok"] })).toThrow(
      "--method GetBlok: no case of this method in the corpus (did you mean GetBlock, getblock, GetBlockRange?)",
    );
  });

  test("a case pattern that matches nothing is an error with the nearest ids", () => {
    expect(() => selectCases(CORPUS, { case: ["GetBlock/at-6"] })).toThrow("--case GetBlock/at-6: no case matches (did you mean GetBlock/at-5,");
    expect(() => selectCases(CORPUS, { case: ["raw-5"], method: ["GetBlock"] })).toThrow(
      "--case raw-5: no case of GetBlock matches (did you mean GetBlock/at-5,",
    );
  });

  test("nearest ranks by edit distance", () => {
    expect(nearest("GetLatestBlok", ["GetBlock", "GetLatestBlock", "GetLightdInfo"])).toEqual(["GetLatestBlock", "GetBlock", "GetLightdInfo"]);
  });
});
