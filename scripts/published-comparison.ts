// `npm run docs:published-comparison`: from the committed goldens, ledger and bench figures,
// writes docs/published-comparison.md and its JSON twin docs/published-comparison.json.

import { writeFileAtomic } from "../src/core/io/atomic-write.js";
import { CLAIMS } from "../src/zcash/real/published-claims.js";
import { committedAt, publishedComparison, publishedComparisonJson, publishedComparisonMarkdown } from "../src/zcash/real/published-comparison.js";

const rows = publishedComparison(CLAIMS, committedAt("."));
writeFileAtomic("docs/published-comparison.md", publishedComparisonMarkdown(rows));
writeFileAtomic("docs/published-comparison.json", publishedComparisonJson(rows));
const tally = [...new Set(rows.map((r) => r.verdict))].map((v) => `${rows.filter((r) => r.verdict === v).length} ${v}`).join(", ");
process.stdout.write(`wrote docs/published-comparison.md and .json: ${rows.length} claims, ${tally}\n`);
