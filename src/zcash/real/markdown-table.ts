// Figures kept in a Markdown page (bench/README.md): the cell of a table, found by the
// section it sits under, its row's first cell and its column's header, so a page that
// records a benchmark run can be read back as data.

export interface TableCell {
  /** The row's first cell, as written. */
  row: string;
  /** The cell, without Markdown emphasis. */
  value: string;
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());

/** The lines of the section under the first heading that starts with `heading` (up to the next heading of its level or above). */
function section(text: string, heading: string): string[] | undefined {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, "").startsWith(heading));
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/**
 * Every cell of the column headed `column` in the rows whose first cell matches `row`, over
 * the tables of the section under `heading`; [] when the section, column or rows are not there.
 */
export function tableCells(text: string, heading: string, row: RegExp, column: string): TableCell[] {
  const lines = section(text, heading) ?? [];
  const out: TableCell[] = [];
  let header: string[] | undefined;
  for (const line of lines) {
    if (!line.trimStart().startsWith("|")) {
      header = undefined;
      continue;
    }
    if (/^\|[\s|:-]+\|$/.test(line.trim())) continue;
    const c = cells(line);
    if (header === undefined) {
      header = c;
      continue;
    }
    const at = header.indexOf(column);
    if (at > 0 && row.test(c[0]!) && c[at] !== undefined) out.push({ row: c[0]!, value: c[at]!.replace(/\*\*/g, "") });
  }
  return out;
}
