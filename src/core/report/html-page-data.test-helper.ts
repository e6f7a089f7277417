// Test helper: the data an HTML report embeds (gzip-compressed JSON in base64), unpacked
// as the page's script unpacks it, for tests that look at what the drill-down shows.

import { gunzipSync } from "node:zlib";
import type { HtmlData } from "./html-data.js";

/** The embedded data as the JSON text the page parses. */
export function pageDataText(html: string): string {
  const m = /<script type="application\/octet-stream" id="zconform-data" data-encoding="gzip\+base64">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error("the page embeds no data");
  return gunzipSync(Buffer.from(m[1]!.replace(/\s+/g, ""), "base64")).toString("utf8");
}

export function pageData(html: string): HtmlData {
  return JSON.parse(pageDataText(html)) as HtmlData;
}
