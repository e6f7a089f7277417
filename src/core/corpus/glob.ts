// Patterns over case ids and field paths: `*` matches any characters; in paths, `[*]`
// matches any index.

const cache = new Map<string, RegExp>();

function compile(pattern: string, pathLike: boolean): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pathLike && pattern.startsWith("[*]", i)) {
      re += "\\[\\d+\\]";
      i += 2;
    } else if (pattern[i] === "*") re += ".*";
    else re += pattern[i]!.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

export function glob(pattern: string, value: string, pathLike = false): boolean {
  const key = `${pathLike ? "p" : "c"}:${pattern}`;
  let re = cache.get(key);
  if (!re) cache.set(key, (re = compile(pattern, pathLike)));
  return re.test(value);
}
