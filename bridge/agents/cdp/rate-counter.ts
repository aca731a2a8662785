// How busy a CDP connection is, for the side panel and /status (commands per second over the last
// 10 s): one-second buckets, so counting a command is two array writes on the hot path.
export class RateCounter {
  private readonly counts = new Array<number>(10).fill(0);
  private readonly seconds = new Array<number>(10).fill(-1);

  hit(now: number): void {
    const sec = Math.floor(now / 1000);
    const i = sec % 10;
    if (this.seconds[i] !== sec) {
      this.seconds[i] = sec;
      this.counts[i] = 0;
    }
    this.counts[i] = (this.counts[i] ?? 0) + 1;
  }

  perSecond(now: number): number {
    const sec = Math.floor(now / 1000);
    let n = 0;
    for (let i = 0; i < 10; i++) if (sec - (this.seconds[i] ?? -100) < 10) n += this.counts[i] ?? 0;
    return n / 10;
  }
}
