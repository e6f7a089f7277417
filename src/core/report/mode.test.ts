import { describe, expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envelope, type Envelope } from "../results/envelope.js";
import type { ModeEvent, Reporter } from "../results/events.js";
import { modeStream } from "../run/mode-stream.js";
import { modeJsonReporter, modeTerminalReporter } from "./mode.js";

interface Doc extends Envelope<"probe"> {
  note: string;
}

const SECRET = "zcfMODEmarker0f1e2d";

describe("a mode's event stream", () => {
  test("its document reaches the JSON file and the terminal with the secrets masked, after its start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-mode-"));
    try {
      const seen: string[] = [];
      const lines: string[] = [];
      const spy: Reporter<ModeEvent<Doc>> = { onEvent: (e) => seen.push(e.type), finish: async () => {} };
      const file = join(dir, "probe.json");
      const stream = modeStream<Doc>(
        [
          spy,
          modeJsonReporter<Doc>(file),
          modeTerminalReporter<Doc>(
            (d) => [`note: ${d.note}`],
            (l) => lines.push(l),
          ),
        ],
        [SECRET],
      );
      const startedAt = new Date();
      stream.emit({ type: "mode-start", kind: "probe", startedAt: startedAt.toISOString(), chain: "fixture", builds: [] });
      const document: Doc = { ...envelope("probe", 1, { startedAt, chain: "fixture", builds: [] }, 0), note: `echoed ${SECRET} back` };
      stream.emit({ type: "mode-end", document });
      await stream.finish();
      expect(seen).toEqual(["mode-start", "mode-end"]);
      expect(lines).toEqual(["note: echoed *** back"]);
      const written = JSON.parse(readFileSync(file, "utf8")) as Doc;
      expect(written).toEqual({ ...document, note: "echoed *** back" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
