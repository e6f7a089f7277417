// The JSON documents zconform writes, checked against their schema files in schemas/.

import { Ajv } from "ajv";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SCHEMAS = join(import.meta.dirname, "..", "schemas");

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
for (const f of readdirSync(SCHEMAS).filter((n) => n.endsWith(".schema.json"))) ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, f), "utf8")));

/** What `doc` breaks of schemas/<name>.schema.json, as "path: message" lines; [] when it conforms. */
export function schemaErrors(name: string, doc: unknown): string[] {
  const validate = ajv.getSchema(`https://zconform.dev/schemas/${name}.schema.json`);
  if (!validate) throw new Error(`no schema ${name}`);
  // A document as written to a file: NaN and undefined are gone.
  return validate(JSON.parse(JSON.stringify(doc))) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message}`);
}
