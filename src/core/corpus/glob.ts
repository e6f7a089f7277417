// Patterns over case ids and field paths: `*` matches any characters; in paths, `[*]`
// matches any index. Matched without backtracking: the pattern is cut at its stars into
// segments, each segment matches at a given position in at most one way, and each is
// placed where it ends earliest. Time is at most the value's length times the pattern's,
// whatever the pattern: a ledger entry like `*a*a*a*a*b` cannot hang a run, as it did
// when patterns became regular expressions.

/** One character, or an index `[digits]` (from `[*]` in a path pattern). */
type Token = string | { index: true };
type Segment = Token[];

interface Compiled {
  segments: Segment[];
  /** Whether the pattern has at least one `*`, i.e. more than one segment. */
  starred: boolean;
}

const cache = new Map<string, Compiled>();

function compile(pattern: string, pathLike: boolean): Compiled {
  const segments: Segment[] = [[]];
  for (let i = 0; i < pattern.length; i++) {
    if (pathLike && pattern.startsWith("[*]", i)) {
      segments[segments.length - 1]!.push({ index: true });
      i += 2;
    } else if (pattern[i] === "*") segments.push([]);
    else segments[segments.length - 1]!.push(pattern[i]!);
  }
  return { segments, starred: segments.length > 1 };
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Where the segment ends when it starts at `at`, or -1. Deterministic: digits run to `]`. */
function endOf(seg: Segment, s: string, at: number): number {
  let p = at;
  for (const t of seg) {
    if (typeof t === "string") {
      if (s[p] !== t) return -1;
      p++;
      continue;
    }
    if (s[p] !== "[") return -1;
    p++;
    const digits = p;
    while (p < s.length && isDigit(s.charCodeAt(p))) p++;
    if (p === digits || s[p] !== "]") return -1;
    p++;
  }
  return p;
}

function matches(c: Compiled, s: string): boolean {
  const { segments } = c;
  if (!c.starred) return endOf(segments[0]!, s, 0) === s.length;
  let pos = endOf(segments[0]!, s, 0);
  if (pos < 0) return false;
  for (let k = 1; k < segments.length - 1; k++) {
    // The earliest end leaves the most room for what follows.
    let best = -1;
    for (let start = pos; start <= s.length && (best < 0 || start < best); start++) {
      const end = endOf(segments[k]!, s, start);
      if (end >= 0 && (best < 0 || end < best)) best = end;
    }
    if (best < 0) return false;
    pos = best;
  }
  const last = segments[segments.length - 1]!;
  for (let start = pos; start <= s.length; start++) if (endOf(last, s, start) === s.length) return true;
  return false;
}

export function glob(pattern: string, value: string, pathLike = false): boolean {
  const key = `${pathLike ? "p" : "c"}:${pattern}`;
  let c = cache.get(key);
  if (!c) cache.set(key, (c = compile(pattern, pathLike)));
  return matches(c, value);
}
