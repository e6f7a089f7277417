// "Did you mean …?" for a misspelt field name: the closest known name, when it is close
// enough to be what the user meant (case, `_` and `-` ignored).

export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of new Set(candidates)) {
    const d = distance(norm(word), norm(c));
    if (d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  return bestScore <= Math.max(1, Math.floor(word.length / 4)) ? best : undefined;
}

/** " (did you mean x?)", or "" when nothing is close. */
export function hintFor(word: string, candidates: Iterable<string>): string {
  const hint = closest(word, candidates);
  return hint ? ` (did you mean ${hint}?)` : "";
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
