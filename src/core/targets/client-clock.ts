// The client's clock against a busy machine: its own ends of a call (its deadline, a quiet
// stream, a server past the deadline it was sent) are judged only after the event loop has
// read what already arrived, and how long the loop was held up during a call is measured.

/**
 * setTimeout whose callback waits for the event loop's next read of its sockets: after a
 * stall (a busy machine, a long synchronous task) node runs the timers that expired before
 * it polls the sockets, so an answer that came in time would otherwise lose to the client's
 * clock. The callback may run after clearTimeout was called in between: it must check
 * whether the call is still open.
 */
export function afterArrived(end: () => void, ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(() => setImmediate(end), ms);
}

const TICK_MS = 10;

/** The longest the event loop was held up (ms) from now until stop(), seen by a ticker. */
export function loopWatch(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const late = (): void => {
    const now = performance.now();
    worst = Math.max(worst, now - last - TICK_MS);
    last = now;
  };
  const ticker = setInterval(late, TICK_MS).unref();
  return {
    stop() {
      clearInterval(ticker);
      late();
      return Math.max(0, worst);
    },
  };
}
