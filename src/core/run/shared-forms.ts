// Within one case most sides answer the same bytes (seven builds and the oracle, often
// all alike). An answer's hex and decoded form depend only on its bytes and on the
// case's canonical options, which every side of a case shares, so they are made once per
// distinct answer and the others point at them: decoding and writing an answer's JSON
// was most of what a run allocated, and a result holds one copy instead of one per side.

import type { JsonValue } from "@bufbuild/protobuf";

export interface AnswerForms {
  hex: string[];
  json?: JsonValue;
}

export type SharedForms = (transport: string, parts: readonly Uint8Array[], make: () => AnswerForms) => AnswerForms;

const sameParts = (a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean => a.length === b.length && a.every((p, i) => Buffer.compare(p, b[i]!) === 0);

/** A cache for the answers of one case (a few sides: a list searched by bytes). */
export function sharedForms(): SharedForms {
  const made: { transport: string; parts: readonly Uint8Array[]; forms: AnswerForms }[] = [];
  return (transport, parts, make) => {
    const hit = made.find((m) => m.transport === transport && sameParts(m.parts, parts));
    if (hit) return hit.forms;
    const forms = make();
    made.push({ transport, parts, forms });
    return forms;
  };
}
