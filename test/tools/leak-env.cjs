// A jest environment that names what a test file leaves running: after each file, the
// timers it set that are still pending (with where they were set) and the change in the
// process's active resources. For hunting "a worker process has failed to exit":
//
//   npx jest --testEnvironment=./test/tools/leak-env.cjs <files>
//
// It reports on stderr and never fails a test: pending timers can be legitimate. Under
// workers it also says what each worker still has active when jest asks it to end, and
// when its loop drained and it began to exit.
const { TestEnvironment } = require("jest-environment-node");
const { createHook } = require("node:async_hooks");
const { writeSync } = require("node:fs");

const resources = () => {
  const n = {};
  for (const r of process.getActiveResourcesInfo()) n[r] = (n[r] ?? 0) + 1;
  return n;
};

// When jest tells a worker to end (jest-worker's CHILD_MESSAGE_END, 2), its loop must drain
// within 500 ms or jest kills it ("failed to exit gracefully"): say what is still active then.
const END = 2;
if (process.send && !globalThis.__zconformLeakEndWatch) {
  globalThis.__zconformLeakEndWatch = true;
  const watch = (m) => {
    if (!Array.isArray(m) || m[0] !== END) return;
    // A listener keeps the IPC channel, and so the worker, alive: leave with jest's own.
    process.off("message", watch);
    // Written synchronously (fd 2): a worker killed a moment later loses nothing said here.
    const at = performance.now();
    const say = (text) => writeSync(2, `worker ${process.pid} ${text} ${Math.round(performance.now() - at)} ms after jest asked it to end\n`);
    setTimeout(() => say(`still running (${JSON.stringify(resources())})`), 400).unref();
    // When its loop has drained: if jest kills a worker that got here early, no handle held
    // it; its exit, or jest's parent on a loaded machine, was slower than jest's 500 ms.
    process.once("exit", () => say("exiting"));
  };
  process.on("message", watch);
}

class LeakEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    this.before = resources();
    this.timers = new Map();
    this.hook = createHook({
      init: (id, type, _trigger, timer) => {
        if (type === "Timeout") this.timers.set(id, { timer, stack: new Error().stack.split("\n").slice(5, 13).join("\n") });
      },
      destroy: (id) => this.timers.delete(id),
    }).enable();
    await super.setup();
  }

  async teardown() {
    // Let closes that are under way finish first.
    await new Promise((r) => setTimeout(r, 200).unref());
    this.hook.disable();
    const after = resources();
    const change = Object.fromEntries(
      [...new Set([...Object.keys(after), ...Object.keys(this.before)])].map((k) => [k, (after[k] ?? 0) - (this.before[k] ?? 0)]).filter(([, d]) => d !== 0),
    );
    // jest's own status line (a run in one process) is not the file's.
    const pending = [...this.timers.values()].filter(
      ({ timer, stack }) => !timer._destroyed && timer._idleTimeout > 0 && timer.hasRef() && !stack.includes("/@jest/"),
    );
    let text = `${this.testPath}: resources ${JSON.stringify(change)}, ${pending.length} timer(s) pending\n`;
    for (const { timer, stack } of pending) text += `  a ${timer._idleTimeout} ms timer set\n${stack}\n`;
    process.stderr.write(text);
    await super.teardown();
  }
}

module.exports = LeakEnvironment;
