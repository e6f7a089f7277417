// A deep copy of plain data (events, results) with every string, object keys included,
// passed through one function: how secrets are masked for reporters (run/redact.ts) and
// server text made inert for the terminal (report/inert.ts). Bytes and other values are
// kept as they are.

export function mapStrings<T>(value: T, text: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[text(k)] = walk(x);
    return out;
  };
  return walk(value) as T;
}
