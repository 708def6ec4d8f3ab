// Real time moved on by `advance`: a rule that reads this clock sees its time pass when the test
// says, instead of the test sleeping for it, and still sees real time pass between.
export class TestClock {
  private offsetMs = 0;
  /** ms since the epoch, as Date.now() would give them */
  readonly nowMs = (): number => Date.now() + this.offsetMs;
  now(): Date {
    return new Date(this.nowMs());
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
