// A counting semaphore for the work this process runs off its event loop (worker threads): a
// process on two cores gains nothing from more than a couple at once, and every job waits for a
// slot no longer than its own deadline.
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    size: number,
    private readonly busy: () => Error,
  ) {
    this.free = size;
  }

  async acquire(deadlineMs: number): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(this.busy());
      }, deadlineMs);
      this.waiting.push(grant);
    });
  }

  /** A release that counts once, however often it is called. */
  private releaser(): () => void {
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
