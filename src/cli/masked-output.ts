// What a command prints, with the config's secrets masked: errors, warnings and notes
// printed beside the reports follow the same rule as the reports (see run/redact.ts).

import { redactForms, secretForms, secretsOf } from "../core/targets/secrets.js";
import type { RunConfig } from "../core/targets/config.js";
import type { Output } from "./output.js";

export function maskedOutput(out: Output, config: RunConfig): Output {
  const forms = secretForms(secretsOf(config));
  if (forms.length === 0) return out;
  return {
    stdout: (line) => out.stdout(redactForms(line, forms)),
    stderr: (line) => out.stderr(redactForms(line, forms)),
  };
}
