// Property: a field that is not declared volatile and changes is always reported, at its
// path; a change confined to volatile fields never is.

import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { create, toBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import { CompactBlockSchema, type CompactBlock } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import { matchesPath, parsePath } from "../canon/paths.js";
import { grpcObs, sampleBlock } from "../canon/testing.test-helper.js";
import { compareObservations } from "./compare.js";

type Step = string | number;
interface Mutation {
  path: string;
  apply(root: Message, pick: number): void;
}

/** Every leaf and every structural change (unset a message, drop or repeat an item). */
function mutations(desc: DescMessage, msg: Message, path: string, steps: Step[], out: Mutation[]): Mutation[] {
  const rec = msg as unknown as Record<string, unknown>;
  for (const f of desc.fields) {
    const p = path ? `${path}.${f.jsonName}` : f.jsonName;
    const at = [...steps, f.localName];
    if (f.fieldKind === "scalar" || f.fieldKind === "enum") {
      out.push({ path: p, apply: (root, pick) => setAt(root, at, (v) => changed(v, pick)) });
    } else if (f.fieldKind === "message") {
      const v = rec[f.localName] as Message | undefined;
      if (v) {
        out.push({ path: p, apply: (root) => setAt(root, at, () => undefined) });
        mutations(f.message, v, p, at, out);
      } else {
        out.push({ path: p, apply: (root) => setAt(root, at, () => create(f.message)) });
      }
    } else if (f.fieldKind === "list" && f.listKind === "message") {
      const items = rec[f.localName] as Message[];
      items.forEach((item, i) => {
        const ip = `${p}[${i}]`;
        out.push({ path: ip, apply: (root) => (getAt(root, at) as unknown[]).splice(i, 1) });
        out.push({ path: ip, apply: (root) => (getAt(root, at) as unknown[]).push(structuredClone(item)) });
        mutations(f.message, item, ip, [...at, i], out);
      });
      out.push({ path: p, apply: (root) => (getAt(root, at) as unknown[]).push(create(f.message)) });
    }
  }
  return out;
}

function getAt(root: unknown, steps: Step[]): unknown {
  return steps.reduce<unknown>((o, s) => (o as Record<Step, unknown>)[s], root);
}

function setAt(root: unknown, steps: Step[], f: (v: unknown) => unknown): void {
  const parent = getAt(root, steps.slice(0, -1)) as Record<Step, unknown>;
  const k = steps[steps.length - 1]!;
  parent[k] = f(parent[k]);
}

function changed(v: unknown, pick: number): unknown {
  if (v instanceof Uint8Array) {
    if (v.length === 0) return new Uint8Array([pick & 0xff || 1]);
    const c = v.slice();
    c[pick % c.length]! ^= 1 << (pick % 8);
    return c;
  }
  if (typeof v === "bigint") return v + 1n;
  if (typeof v === "number") return v === 0xffffffff ? v - 1 : v + 1;
  if (typeof v === "boolean") return !v;
  if (typeof v === "string") return v + "x";
  throw new Error(`cannot mutate ${typeof v}`);
}

const VOLATILE = ["vtx[*].fee", "time", "chainMetadata.orchardCommitmentTreeSize", "vtx[0].outputs[1].cmu"];
const patterns = VOLATILE.map(parsePath);
const isVolatile = (path: string) => patterns.some((p) => matchesPath(parsePath(path), p));
const covers = (d: string, mutated: string) => d === "" || mutated === d || mutated.startsWith(d + ".") || mutated.startsWith(d + "[");
const method = CompactTxStreamer.method.getBlockRange;

describe("no silent difference", () => {
  test("a mutated field is reported at its path unless declared volatile (real-shaped blocks)", () => {
    let volatileHits = 0;
    let reported = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_000_000 }), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 2 }), (height, which, pick, msgIndex) => {
        const blocks = [0, 1, 2].map((k) => sampleBlock(height + k));
        const all = mutations(CompactBlockSchema, blocks[msgIndex]!, "", [], []);
        const m = all[which % all.length]!;
        const mutated = blocks.map((b) => structuredClone(b)) as CompactBlock[];
        m.apply(mutated[msgIndex]!, pick);
        const enc = (bs: CompactBlock[]) => grpcObs(bs.map((b) => toBinary(CompactBlockSchema, b)));
        const r = compareObservations(enc(blocks), enc(mutated), { left: "a", right: "b", method, volatile: VOLATILE });
        const full = `[${msgIndex}].${m.path}`;
        if (isVolatile(m.path)) {
          volatileHits++;
          expect(r.divergences).toEqual([]);
        } else {
          reported++;
          expect(r.divergences.length).toBeGreaterThan(0);
          expect(r.divergences.some((d) => covers(d.path, full))).toBe(true);
        }
      }),
      { numRuns: 600, seed: 20240611 },
    );
    expect(volatileHits).toBeGreaterThan(0);
    expect(reported).toBeGreaterThan(300);
  });

  test("any flipped bit in the wire bytes yields a divergence (decodable or not), never an exception", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_000_000 }), fc.nat(), fc.integer({ min: 0, max: 7 }), (height, at, bit) => {
        const wire = toBinary(CompactBlockSchema, sampleBlock(height));
        const flipped = wire.slice();
        flipped[at % wire.length]! ^= 1 << bit;
        const r = compareObservations(grpcObs([wire]), grpcObs([flipped]), { left: "a", right: "b", method: CompactTxStreamer.method.getBlock });
        expect(r.divergences.length).toBeGreaterThan(0);
      }),
      { numRuns: 400, seed: 7 },
    );
  });
});
