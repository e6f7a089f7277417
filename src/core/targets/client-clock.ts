// The client's own ends of a call (its deadline, a quiet stream, a server past the deadline
// it was sent) are judged only after the event loop has read what already arrived.

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
