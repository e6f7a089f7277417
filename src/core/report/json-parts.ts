// A JSON document as a sequence of parts: the object's other members in one piece, then
// each element of its long arrays (or member of its long objects) on its own, so that no
// single string holds the whole report. The parts joined are exactly what
// `JSON.stringify(object)` would give with those members moved to the end.

const encode = JSON.stringify;

export function* jsonParts(value: Record<string, unknown>, streamed: readonly string[]): Generator<string> {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!streamed.includes(k)) rest[k] = v;
  const head = encode(rest);
  let first = head === "{}";
  yield head.slice(0, -1);
  for (const key of streamed) {
    const list = value[key];
    if (Array.isArray(list)) {
      yield `${first ? "" : ","}${encode(key)}:[`;
      for (const [i, item] of list.entries()) yield `${i === 0 ? "" : ","}${encode(item)}`;
      yield "]";
    } else if (list !== null && typeof list === "object") {
      yield `${first ? "" : ","}${encode(key)}:{`;
      for (const [i, [k, item]] of Object.entries(list).entries()) yield `${i === 0 ? "" : ","}${encode(k)}:${encode(item)}`;
      yield "}";
    } else continue;
    first = false;
  }
  yield "}";
}
