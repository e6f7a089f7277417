// A stalled event loop, as a loaded machine or a long synchronous task makes one: tests of
// what the client and the servers in this process decide by their clocks meanwhile.

/** Keeps this process's event loop busy for `ms`. */
export function stallLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Keeps the loop busy until `done()` and at least `until` (a performance.now() time); throws when `done()` is still false after `capMs`. */
export function stallUntil(done: () => boolean, until: number, what: string, capMs = 10_000): void {
  const cap = performance.now() + capMs;
  while (performance.now() < until || !done()) {
    if (performance.now() > cap) throw new Error(`stalled ${capMs} ms and still waiting for ${what}`);
  }
}
