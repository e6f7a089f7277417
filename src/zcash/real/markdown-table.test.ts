import { expect, test } from "@jest/globals";
import { tableCells } from "./markdown-table.js";

const page = [
  "# Benchmarks",
  "## Serving",
  "",
  "| scenario | a | b (real) |",
  "|---|--:|--:|",
  "| rate, 1 client | 1 | **2** |",
  "| rate, 8 clients | 3 | 4 |",
  "",
  "### a subsection",
  "| scenario | b (real) |",
  "|---|---|",
  "| rate, 1 client | 9 |",
  "## Latency",
  "| scenario | b (real) |",
  "|---|---|",
  "| rate, 1 client | 7 |",
].join("\n");

test("a cell is found by its section, its row's first cell and its column's header, without emphasis", () => {
  expect(tableCells(page, "Serving", /1 client$/, "b (real)")).toEqual([
    { row: "rate, 1 client", value: "2" },
    { row: "rate, 1 client", value: "9" },
  ]);
  expect(tableCells(page, "Latency", /1 client$/, "b (real)")).toEqual([{ row: "rate, 1 client", value: "7" }]);
  expect(tableCells(page, "Serving", /clients?$/, "a")).toEqual([
    { row: "rate, 1 client", value: "1" },
    { row: "rate, 8 clients", value: "3" },
  ]);
});

test("a section, column or row that is not there gives nothing", () => {
  expect(tableCells(page, "Memory", /1 client/, "a")).toEqual([]);
  expect(tableCells(page, "Serving", /1 client/, "c")).toEqual([]);
  expect(tableCells(page, "Serving", /scenario/, "a")).toEqual([]);
});
