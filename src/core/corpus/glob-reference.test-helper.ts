// What a pattern means, spelled as a regular expression: the backtracking reading the
// linear matcher must agree with (fine for the short values property tests generate).
export function referenceGlob(pattern: string, value: string, pathLike: boolean): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pathLike && pattern.startsWith("[*]", i)) {
      re += "\\[\\d+\\]";
      i += 2;
    } else if (pattern[i] === "*") re += ".*";
    else re += pattern[i]!.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "s").test(value);
}
