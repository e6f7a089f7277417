// The wire-cost report: JSON (`zconform wirecost --json FILE`, "kind": "wirecost" in the
// modes' envelope, schemas/wirecost.schema.json) and a
// table per data item: each build's answers over gRPC and JSON-RPC with bytes, median
// call time, median decode time and the size relative to the gRPC answer.

import { envelope, type Envelope, type EnvelopeContext } from "../../core/results/envelope.js";
import type { WireRow } from "./wirecost.js";

export const WIRECOST_REPORT_VERSION = 1;

/** A measurement, not a check: its exit code is always 0. */
export interface WireCostReport extends Envelope<"wirecost"> {
  calls: number;
  rows: WireRow[];
  skipped: string[];
}

export function wireCostReport(rows: WireRow[], skipped: string[], c: EnvelopeContext & { calls: number }): WireCostReport {
  return { ...envelope("wirecost", WIRECOST_REPORT_VERSION, c, 0), calls: c.calls, rows, skipped };
}

const ms = (v: number) => (Number.isNaN(v) ? "-" : v < 0.1 ? v.toFixed(4) : v < 10 ? v.toFixed(3) : v.toFixed(1));

function requestText(r: WireRow): string {
  if (r.transport === "jsonrpc")
    return `${r.call} ${(r.request as unknown[]).map((p) => (typeof p === "string" && p.length > 16 ? `${p.slice(0, 8)}…` : String(p))).join(" ")}`;
  return r.call;
}

export function wireCostLines(r: WireCostReport): string[] {
  const out = [`Wire cost of the same data over gRPC and JSON-RPC on ${r.chain} (payload bytes; median of ${r.calls} calls; median decode time)`];
  const emulated = r.builds.filter((b) => b.emulated).map((b) => b.name);
  if (emulated.length > 0) out.push(`emulated profiles (not the real builds): ${emulated.join(", ")}`);
  for (const data of [...new Set(r.rows.map((x) => x.data))]) {
    out.push("", data);
    const rows = r.rows.filter((x) => x.data === data);
    const table = [["build", "transport", "request", "status", "bytes", "vs gRPC", "call ms", "decode ms", "decoded into"]];
    for (const x of rows) {
      const grpc = rows.find((g) => g.build === x.build && g.transport === "grpc" && g.status === "OK");
      table.push([
        x.build,
        x.transport === "grpc" ? "gRPC" : "JSON-RPC",
        requestText(x),
        x.status,
        x.wireBytes.toLocaleString("en-US"),
        grpc && grpc.wireBytes > 0 ? `${(x.wireBytes / grpc.wireBytes).toFixed(2)}x` : "-",
        ms(x.callMs),
        ms(x.decodeMs),
        x.decodeError ? `does not decode: ${x.decodeError}` : x.decodedInto,
      ]);
    }
    const widths = table[0]!.map((_, i) => Math.max(...table.map((t) => t[i]!.length)));
    const right = new Set([4, 5, 6, 7]);
    for (const t of table)
      out.push(
        "  " +
          t
            .map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
            .join("  ")
            .trimEnd(),
      );
  }
  for (const s of r.skipped) out.push(`skipped ${s}`);
  if (r.rows.length === 0) out.push("", "No build serves both gRPC and JSON-RPC: nothing to compare.");
  return out;
}
