// A JSON document as a sequence of parts: the object's other members in one piece, then
// each element of its long arrays on its own, so that no single string holds the whole
// report. The parts joined are exactly what `encode(object)` would give with those
// arrays moved to the end.

export function* jsonParts(
  value: Record<string, unknown>,
  streamed: readonly string[],
  encode: (v: unknown) => string = JSON.stringify,
): Generator<string> {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!streamed.includes(k)) rest[k] = v;
  const head = encode(rest);
  let first = head === "{}";
  yield head.slice(0, -1);
  for (const key of streamed) {
    const list = value[key];
    if (!Array.isArray(list)) continue;
    yield `${first ? "" : ","}${encode(key)}:[`;
    first = false;
    for (const [i, item] of list.entries()) yield `${i === 0 ? "" : ","}${encode(item)}`;
    yield "]";
  }
  yield "}";
}
