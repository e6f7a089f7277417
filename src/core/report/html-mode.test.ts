import { expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envelope, type Envelope } from "../results/envelope.js";
import { modeStream } from "../run/mode-stream.js";
import { esc } from "./html-render.js";
import { modeHtmlReporter, modePage } from "./html-mode.js";

interface Doc extends Envelope<"probe"> {
  note: string;
}

const SECRET = "zcfHTMLmarker9a8b7c";

test("a mode's page is written from its finished document, secrets masked, with nothing to run or fetch", async () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-mode-html-"));
  try {
    const file = join(dir, "probe.html");
    const page = (d: Doc) => modePage(d, { title: "probe <page>", facts: ["one fact"], body: `<p>${esc(d.note)}</p>` });
    const stream = modeStream<Doc>([modeHtmlReporter<Doc>(file, page)], [SECRET]);
    const startedAt = new Date();
    stream.emit({ type: "mode-start", kind: "probe", startedAt: startedAt.toISOString(), chain: "fixture", builds: [] });
    const builds = [{ name: "lwd", implementation: "lightwalletd", emulated: true }];
    stream.emit({ type: "mode-end", document: { ...envelope("probe", 1, { startedAt, chain: "fixture", builds }, 0), note: `echoed ${SECRET} back` } });
    await stream.finish();
    const html = readFileSync(file, "utf8");
    expect(html).toContain("<p>echoed *** back</p>");
    expect(html).not.toContain(SECRET);
    expect(html).toContain("probe &lt;page&gt;");
    expect(html).toContain("chain fixture · started ");
    expect(html).toContain("builds: lwd (EMULATED)");
    expect(html).toContain(`content="default-src &#39;none&#39;`);
    expect(html).not.toMatch(/<script|\bsrc=/i);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
