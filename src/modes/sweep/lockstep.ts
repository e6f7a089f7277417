// Lockstep over several streams of one chunk: position p of every source (the p-th block
// each build sent) is compared as soon as all sources have delivered it or ended, then
// forgotten. A source may run at most `window` positions ahead of the oldest position
// not yet compared; the delivery that fills its share of the window returns a promise,
// which the gRPC client turns into HTTP/2 back-pressure (the stream pauses until the
// promise settles). Memory is therefore bounded by window × sources messages however long
// the range, and one slow build slows the others only once they are a window ahead.
//
// Deliveries that fit return nothing (no promise, no pause): pausing and resuming a
// stream per message would cost more than the comparison itself.

export type PositionHandler = (position: number, values: ReadonlyArray<Uint8Array | undefined>) => void;

export class Lockstep {
  private readonly ring: (Uint8Array | undefined)[][];
  private readonly received: number[];
  private readonly ended: boolean[];
  private readonly waiting: ((() => void) | undefined)[];
  private readonly extras: number[];
  private nextPosition = 0;
  private finished: (() => void) | undefined;
  private readonly allDone: Promise<void>;

  constructor(
    private readonly sources: number,
    window: number,
    /** Positions expected from every source (the chunk's block count). */
    private readonly expected: number,
    private readonly onPosition: PositionHandler,
  ) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError(`window must be an integer >= 1, got ${window}`);
    this.ring = Array.from({ length: Math.min(window, expected) || 1 }, () => new Array<Uint8Array | undefined>(sources).fill(undefined));
    this.received = new Array<number>(sources).fill(0);
    this.ended = new Array<boolean>(sources).fill(false);
    this.waiting = new Array<(() => void) | undefined>(sources).fill(undefined);
    this.extras = new Array<number>(sources).fill(0);
    this.allDone = new Promise((resolve) => (this.finished = resolve));
  }

  /** The next message of source j. A returned promise asks the source to wait before the next one. */
  deliver(j: number, bytes: Uint8Array): void | Promise<void> {
    if (this.ended[j]) throw new Error(`source ${j} delivered after it ended`);
    const p = this.received[j]!++;
    if (p >= this.expected) {
      // More blocks than the range holds: counted, never stored.
      this.extras[j]!++;
      return;
    }
    this.ring[p % this.ring.length]![j] = bytes;
    if (p === this.nextPosition) this.advance();
    if (this.received[j]! < this.expected && this.received[j]! - this.nextPosition >= this.ring.length) {
      return new Promise<void>((resolve) => (this.waiting[j] = resolve));
    }
  }

  /** Source j will deliver nothing more (its stream is over for good). */
  end(j: number): void {
    if (this.ended[j]) return;
    this.ended[j] = true;
    const wake = this.waiting[j];
    this.waiting[j] = undefined;
    wake?.();
    this.advance();
  }

  /** Positions source j delivered, extras included. */
  count(j: number): number {
    return this.received[j]!;
  }

  /** Messages beyond the expected count that source j sent. */
  extra(j: number): number {
    return this.extras[j]!;
  }

  get compared(): number {
    return this.nextPosition;
  }

  /** Resolves once every source ended and every position that can be compared was. */
  done(): Promise<void> {
    return this.allDone;
  }

  private ready(p: number): boolean {
    for (let j = 0; j < this.sources; j++) if (this.received[j]! <= p && !this.ended[j]) return false;
    return true;
  }

  private advance(): void {
    const size = this.ring.length;
    while (this.nextPosition < this.expected && this.ready(this.nextPosition)) {
      const slot = this.ring[this.nextPosition % size]!;
      this.onPosition(this.nextPosition, slot);
      slot.fill(undefined);
      this.nextPosition++;
    }
    for (let j = 0; j < this.sources; j++) {
      const wake = this.waiting[j];
      if (wake && this.received[j]! - this.nextPosition < size) {
        this.waiting[j] = undefined;
        wake();
      }
    }
    this.checkFinished();
  }

  private checkFinished(): void {
    // Once every source ended every position is ready, so advance() compared them all.
    if (this.finished && this.ended.every(Boolean)) {
      const f = this.finished;
      this.finished = undefined;
      f();
    }
  }
}
