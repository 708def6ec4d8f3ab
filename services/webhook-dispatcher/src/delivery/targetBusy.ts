// Why a callback was not made (its target is saturated or its breaker open): the delivery goes
// back to the table for later without counting an attempt.
export class TargetBusy extends Error {
  override name = 'TargetBusy';
  constructor(
    message: string,
    /** when to look at the delivery again */
    readonly pauseMs: number,
  ) {
    super(message);
  }
}
