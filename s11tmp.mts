import { runLikeCommand } from "./src/commands/run.ts";
const quiet = process.argv[2] === "q";
const code = await runLikeCommand({ config: "/tmp/scratch/cfg.yaml", cases: "/tmp/scratch/cases", quiet } as any, { stdout: (l) => console.log(l), stderr: (l) => console.error(l) });
console.error("done", code);
