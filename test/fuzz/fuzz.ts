// Shared settings and mutators of the fuzz suites.
//
// Every target runs FUZZ_RUNS inputs (10,000 by default; ZCONFORM_FUZZ_RUNS to change)
// from a fixed seed, so a failure reproduces: the failure message names the target, the
// seed and fast-check's replay path, and ZCONFORM_FUZZ_SEED=<seed> reruns that seed.
// Each input must settle within a time budget (a hang is a failure) and must either
// succeed or throw the module's own error class with a message that says where; what
// "says where" means is defined per target, in its test file.

import fc from "fast-check";

export const FUZZ_RUNS = Number(process.env.ZCONFORM_FUZZ_RUNS ?? 10_000);

/** Generous for a slow CI machine; correct inputs take well under a millisecond. */
export const INPUT_BUDGET_MS = Number(process.env.ZCONFORM_FUZZ_BUDGET_MS ?? 1000);

/** The seed of a target: fixed per target, or ZCONFORM_FUZZ_SEED for all of them. */
export function seedOf(fixed: number): number {
  const env = process.env.ZCONFORM_FUZZ_SEED;
  return env === undefined ? fixed : Number(env);
}

/**
 * Runs a property over FUZZ_RUNS inputs from `seed`. The predicate throws to fail; a
 * failure is rethrown with the target and the seed first, so the log says how to replay.
 */
export function fuzz<T>(target: string, seed: number, arb: fc.Arbitrary<T>, check: (input: T) => void, runs = FUZZ_RUNS): { runs: number; ms: number } {
  const s = seedOf(seed);
  const t0 = performance.now();
  let count = 0;
  let failure: unknown;
  const property = fc.property(arb, (input) => {
    count++;
    const started = performance.now();
    try {
      check(input);
    } catch (e) {
      failure = e;
      throw e;
    }
    const took = performance.now() - started;
    if (took > INPUT_BUDGET_MS) {
      failure = new Error(`input took ${took.toFixed(0)} ms (budget ${INPUT_BUDGET_MS} ms)`);
      throw failure;
    }
  });
  try {
    fc.assert(property, { seed: s, numRuns: runs, endOnFailure: true });
  } catch (e) {
    // Counterexamples can be megabytes of bytes; the seed and path replay them anyway.
    const detail = (e as Error).message;
    const shown = detail.length > 4000 ? `${detail.slice(0, 4000)}… (${detail.length - 4000} more characters)` : detail;
    const why = failure instanceof Error ? `${failure.message}\n${failure.stack?.split("\n").slice(1, 6).join("\n") ?? ""}` : String(failure);
    const message = `fuzz target "${target}" failed with seed ${s} (rerun: ZCONFORM_FUZZ_SEED=${s})\n${why}\n${shown}`;
    process.stderr.write(`${message.split("\n").slice(0, 2).join("\n")}\n`);
    throw new Error(message);
  }
  const ms = performance.now() - t0;
  if (process.env.ZCONFORM_FUZZ_REPORT) process.stderr.write(`fuzz ${target}: ${count} inputs in ${ms.toFixed(0)} ms (seed ${s})\n`);
  return { runs: count, ms };
}

/** Throws unless `e` is an instance of `cls` whose message passes `clear`. */
export function expectClear(e: unknown, cls: abstract new (...args: never[]) => Error, clear: (err: Error) => string | undefined): void {
  if (!(e instanceof cls)) {
    const what = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
    throw new Error(`expected a ${cls.name}, got ${what}`);
  }
  const why = clear(e);
  if (why) throw new Error(`unclear ${cls.name} (${why}): ${e.message}`);
}

// ---------------------------------------------------------------------------------
// Text mutations: what a person (or a merge) does to a YAML file.

export type TextOp =
  | { op: "delete-line"; at: number }
  | { op: "duplicate-line"; at: number }
  | { op: "swap-lines"; at: number; with: number }
  | { op: "truncate"; at: number }
  | { op: "retype"; at: number; value: string }
  | { op: "insert"; at: number; text: string }
  | { op: "indent"; at: number; by: number }
  | { op: "alias-bomb"; depth: number; self: boolean };

/** Values that change a YAML scalar's type or bring YAML features in. */
const YAML_VALUES = [
  "[]",
  "{}",
  "null",
  "~",
  "true",
  "false",
  "0",
  "-1",
  "1.5",
  "1e309",
  "0x10",
  "''",
  '""',
  "[1, 2]",
  "{ a: 1 }",
  "!!binary AAAA",
  "&anchor 1",
  "*anchor",
  "*missing",
  "|\n  text",
  ">-",
  "'unterminated",
  '"\\u0000"',
  "- x",
  "9007199254740993",
  "${tip}",
  "${nope}",
  "${tip+1|le}",
  "\t",
  ":",
  "? x",
  "@",
  "`",
  "%YAML 1.2",
  "---",
  "...",
];

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

// Alias bombs are rare (about one input in fifteen): each costs a few milliseconds to parse.
export const textOp: fc.Arbitrary<TextOp> = fc.oneof(
  w(5, fc.record({ op: fc.constant("delete-line" as const), at: fc.nat() })),
  w(5, fc.record({ op: fc.constant("duplicate-line" as const), at: fc.nat() })),
  w(5, fc.record({ op: fc.constant("swap-lines" as const), at: fc.nat(), with: fc.nat() })),
  w(5, fc.record({ op: fc.constant("truncate" as const), at: fc.nat() })),
  w(5, fc.record({ op: fc.constant("retype" as const), at: fc.nat(), value: fc.oneof(fc.constantFrom(...YAML_VALUES), fc.string({ maxLength: 12 })) })),
  w(
    5,
    fc.record({
      op: fc.constant("insert" as const),
      at: fc.nat(),
      text: fc.oneof(fc.constantFrom(...YAML_VALUES, "\n", "  ", "#", "- "), fc.string({ maxLength: 8 })),
    }),
  ),
  w(5, fc.record({ op: fc.constant("indent" as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) })),
  w(1, fc.record({ op: fc.constant("alias-bomb" as const), depth: fc.integer({ min: 2, max: 9 }), self: fc.boolean() })),
);

/**
 * A top-level key whose value is a "billion laughs" alias tree (10^depth leaves from a
 * few hundred bytes), or an alias to the list that contains it.
 */
export function aliasBomb(depth: number, self: boolean): string {
  if (self) return "zz_loop: &loop [1, *loop]";
  const lines = ["zz_bomb:", "  - &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i < depth; i++) lines.push(`  - &b${i} [${Array.from({ length: 10 }, () => `*b${i - 1}`).join(", ")}]`);
  return lines.join("\n");
}

export function mutateText(text: string, ops: readonly TextOp[]): string {
  let lines = text.split("\n");
  for (const o of ops) {
    const i = lines.length === 0 || o.op === "alias-bomb" ? 0 : o.at % lines.length;
    switch (o.op) {
      case "delete-line":
        lines.splice(i, 1);
        break;
      case "duplicate-line":
        lines.splice(i, 0, lines[i] ?? "");
        break;
      case "swap-lines": {
        const j = lines.length === 0 ? 0 : o.with % lines.length;
        [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
        break;
      }
      case "truncate": {
        const all = lines.join("\n");
        lines = all.slice(0, o.at % (all.length + 1)).split("\n");
        break;
      }
      case "retype": {
        const line = lines[i] ?? "";
        const colon = line.indexOf(": ");
        lines[i] = colon >= 0 ? `${line.slice(0, colon + 2)}${o.value}` : line.replace(/-\s.*$/, `- ${o.value}`);
        break;
      }
      case "insert": {
        const line = lines[i] ?? "";
        const at = o.at % (line.length + 1);
        lines[i] = line.slice(0, at) + o.text + line.slice(at);
        break;
      }
      case "indent": {
        const line = lines[i] ?? "";
        lines[i] = o.by >= 0 ? " ".repeat(o.by) + line : line.replace(new RegExp(`^ {0,${-o.by}}`), "");
        break;
      }
      case "alias-bomb":
        lines.push(...aliasBomb(o.depth, o.self).split("\n"));
        break;
    }
  }
  return lines.join("\n");
}

/** A seed file mutated one to four times. */
export function mutatedText(seeds: readonly string[]): fc.Arbitrary<string> {
  return fc.record({ seed: fc.constantFrom(...seeds), ops: fc.array(textOp, { minLength: 1, maxLength: 4 }) }).map(({ seed, ops }) => mutateText(seed, ops));
}

/** Text that looks a little like YAML: its syntax characters, words, numbers and newlines. */
export const yamlishText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom("\n", "  ", "- ", ": ", "{", "}", "[", "]", ",", "#", "&a ", "*a", "!", "|", ">", "'", '"', "id", "method", "cases", "request"),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

// ---------------------------------------------------------------------------------
// Byte mutations: what a broken or hostile server does to bytes.

export type ByteOp =
  | { op: "flip"; at: number; bit: number }
  | { op: "set"; at: number; value: number }
  | { op: "truncate"; at: number }
  | { op: "delete"; at: number; n: number }
  | { op: "insert"; at: number; bytes: Uint8Array }
  | { op: "duplicate"; at: number; n: number }
  | { op: "huge-count"; at: number; which: number };

/** CompactSize and varint spellings of absurd counts and lengths. */
const HUGE = [
  [0xfd, 0xff, 0xff],
  [0xfe, 0xff, 0xff, 0xff, 0xff],
  [0xfe, 0x00, 0x00, 0x00, 0x02],
  [0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00],
  [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
  [0xff, 0xff, 0xff, 0xff, 0x0f],
  [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
];

export const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant("set" as const), at: fc.nat(), value: fc.constantFrom(0x00, 0x01, 0x7f, 0x80, 0xfc, 0xfd, 0xfe, 0xff) }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), n: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
  fc.record({ op: fc.constant("duplicate" as const), at: fc.nat(), n: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant("huge-count" as const), at: fc.nat(), which: fc.nat({ max: HUGE.length - 1 }) }),
);

export function mutateBytes(input: Uint8Array, ops: readonly ByteOp[]): Uint8Array {
  let b = Buffer.from(input);
  for (const o of ops) {
    const at = o.at % (b.length + 1);
    switch (o.op) {
      case "flip":
        if (at < b.length) b[at]! ^= 1 << o.bit;
        break;
      case "set":
        if (at < b.length) b[at] = o.value;
        break;
      case "truncate":
        b = b.subarray(0, at);
        break;
      case "delete":
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + o.n)]);
        break;
      case "insert":
        b = Buffer.concat([b.subarray(0, at), o.bytes, b.subarray(at)]);
        break;
      case "duplicate":
        b = Buffer.concat([b.subarray(0, at + o.n), b.subarray(at)]);
        break;
      case "huge-count": {
        const h = Buffer.from(HUGE[o.which]!);
        b = Buffer.concat([b.subarray(0, at), h, b.subarray(at + h.length)]);
        break;
      }
    }
  }
  return new Uint8Array(b);
}

/** A seed mutated one to four times. */
export function mutatedBytes(seeds: readonly Uint8Array[]): fc.Arbitrary<Uint8Array> {
  return fc.record({ seed: fc.constantFrom(...seeds), ops: fc.array(byteOp, { minLength: 1, maxLength: 4 }) }).map(({ seed, ops }) => mutateBytes(seed, ops));
}

/** Heap grown by one input, in bytes: a decoder that believed a lying count shows here. */
export function heapGrowth(f: () => void): number {
  const before = process.memoryUsage().heapUsed;
  f();
  return process.memoryUsage().heapUsed - before;
}
