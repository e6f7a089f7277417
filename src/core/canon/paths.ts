// Field paths: how cases name fields (volatile declarations) and how divergences say
// where two answers differ. One syntax for both, so a path printed in a report can be
// pasted into a case file as it is.
//
// Syntax
//   path     := "" | head tail*
//   head     := name | bracket | unknown
//   tail     := "." name | "." unknown | bracket
//   name     := one or more characters other than . [ ] "      e.g. valueZat, 5ba81b19
//   bracket  := "[" digits "]"        an array index or stream message, 0-based
//             | "[*]"                 any index (in a JSON-RPC body, also any key of an object)
//             | "[" json-string "]"   a key that a bare name cannot spell: ["a.b"], [""]
//   unknown  := "$unknown[" digits "]" the unknown protobuf field with that number
//
// gRPC names are the protobuf JSON names (`completingBlockHash`, not the proto name).
// JSON-RPC paths start at the body: `result.subversion`, `error.code`.
// For a gRPC answer a path is relative to each message: `vtx[*].fee` applies to every
// message of a stream; a leading index selects messages: `[3].vtx[0].txid` is message 3
// only, `[*].height` is every message (the same as `height`). `status.code` and
// `status.message` name the gRPC status; to name a message field called `status`,
// write `[*].status`.
// The empty path names the whole answer (a whole stream, a whole body).

export type Segment = { kind: "field"; name: string } | { kind: "index"; index: number } | { kind: "any" } | { kind: "unknown"; no: number };

export class PathSyntaxError extends Error {
  constructor(
    readonly path: string,
    readonly offset: number,
    reason: string,
  ) {
    super(`bad field path ${JSON.stringify(path)} at ${offset}: ${reason}`);
    this.name = "PathSyntaxError";
  }
}

const UNKNOWN = "$unknown[";

export function parsePath(path: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  const fail = (reason: string): never => {
    throw new PathSyntaxError(path, i, reason);
  };
  while (i < path.length) {
    const c = path[i];
    if (c === "[") {
      out.push(readBracket());
      continue;
    }
    if (out.length > 0) {
      if (c !== ".") fail(`expected "." or "[", found ${JSON.stringify(c)}`);
      i++;
    }
    if (path.startsWith(UNKNOWN, i)) {
      i += UNKNOWN.length;
      const no = readDigits();
      if (no === 0 || no > 0x1fffffff) fail("field number out of range");
      if (path[i] !== "]") fail('expected "]"');
      i++;
      out.push({ kind: "unknown", no });
      continue;
    }
    const start = i;
    while (i < path.length && !'.[]"'.includes(path[i]!)) i++;
    if (i === start) fail("empty field name");
    out.push({ kind: "field", name: path.slice(start, i) });
  }
  return out;

  function readDigits(): number {
    const start = i;
    while (i < path.length && path[i]! >= "0" && path[i]! <= "9") i++;
    if (i === start) fail("expected digits");
    if (i - start > 1 && path[start] === "0") fail("leading zero in index");
    const n = Number(path.slice(start, i));
    if (!Number.isSafeInteger(n)) fail("index too large");
    return n;
  }

  function readBracket(): Segment {
    i++; // "["
    let seg: Segment;
    if (path[i] === "*") {
      i++;
      seg = { kind: "any" };
    } else if (path[i] === '"') {
      const start = i;
      i++;
      while (i < path.length && path[i] !== '"') i += path[i] === "\\" ? 2 : 1;
      if (i >= path.length) fail("unterminated quoted key");
      i++;
      let name: unknown;
      try {
        name = JSON.parse(path.slice(start, i));
      } catch {
        fail("invalid quoted key");
      }
      seg = { kind: "field", name: name as string };
    } else {
      seg = { kind: "index", index: readDigits() };
    }
    if (path[i] !== "]") fail('expected "]"');
    i++;
    return seg;
  }
}

const BARE = /^[^.[\]"]+$/;

/** Appends one segment to an already formatted path. */
export function appendSegment(path: string, seg: Segment): string {
  switch (seg.kind) {
    case "field":
      return appendKey(path, seg.name);
    case "index":
      return appendIndex(path, seg.index);
    case "any":
      return `${path}[*]`;
    case "unknown":
      return `${path}${path === "" ? "" : "."}$unknown[${seg.no}]`;
  }
}

export function appendKey(path: string, name: string): string {
  if (BARE.test(name) && !name.startsWith(UNKNOWN)) {
    return path === "" ? name : `${path}.${name}`;
  }
  return `${path}[${JSON.stringify(name)}]`;
}

export function appendIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}

export function formatPath(segments: readonly Segment[]): string {
  let p = "";
  for (const s of segments) p = appendSegment(p, s);
  return p;
}

/** Whether a concrete path (no wildcards) is matched by a pattern, segment for segment. */
export function matchesPath(concrete: readonly Segment[], pattern: readonly Segment[]): boolean {
  if (concrete.length !== pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const c = concrete[i]!;
    switch (p.kind) {
      case "any":
        if (c.kind !== "index" && c.kind !== "any") return false;
        break;
      case "index":
        if (c.kind !== "index" || c.index !== p.index) return false;
        break;
      case "field":
        if (c.kind !== "field" || c.name !== p.name) return false;
        break;
      case "unknown":
        if (c.kind !== "unknown" || c.no !== p.no) return false;
        break;
    }
  }
  return true;
}

/** A segment selects stream messages when it is an index or `[*]`. */
export function isIndexLike(seg: Segment | undefined): boolean {
  return seg !== undefined && (seg.kind === "index" || seg.kind === "any");
}
