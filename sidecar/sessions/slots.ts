// Session slots ("3 concurrent max, queue excess"): a web.open over
// max_concurrent_sessions waits in line, first come first served, until a
// session closes or its wait runs out; then it fails with session_limit,
// saying how long it waited. A slot is held from take() until release()
// (the session closed, or its open failed).
import { WebcapError } from '../../manifests/errors.js';

interface Waiter { grant(): void }

export class SessionSlots {
  private used = 0;
  private readonly line: Waiter[] = [];

  /** `onQueue`: told the number of waiters whenever it changes. */
  constructor(private readonly max: number, private readonly onQueue: (waiting: number) => void = () => undefined) {}

  get waiting(): number { return this.line.length; }

  /** Slots held: open sessions plus opens under way. */
  get busy(): number { return this.used; }

  async take(waitMs: number, open: () => string[]): Promise<void> {
    if (this.used < this.max && this.line.length === 0) {
      this.used += 1;
      return;
    }
    const started = Date.now();
    const refuse = (waited: number) => new WebcapError('session_limit',
      `${this.max} sessions are open (max_concurrent_sessions = ${this.max}) and none closed ${waited ? `in the ${waited} ms this web.open waited` : '(session_queue = "fail")'}; close one with web.close`,
      { open: open(), max: this.max, waited_ms: waited });
    if (waitMs <= 0) throw refuse(0);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { grant: () => { clearTimeout(timer); this.used += 1; resolve(); } };
      const timer = setTimeout(() => {
        this.line.splice(this.line.indexOf(waiter), 1);
        this.onQueue(this.line.length);
        reject(refuse(Date.now() - started));
      }, waitMs);
      this.line.push(waiter);
      this.onQueue(this.line.length);
    });
  }

  release(): void {
    this.used = Math.max(0, this.used - 1);
    if (this.used >= this.max) return;
    const next = this.line.shift();
    if (!next) return;
    next.grant();
    this.onQueue(this.line.length);
  }
}
