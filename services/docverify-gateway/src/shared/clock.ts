// The gateway's time, injected everywhere a session or run timer reads it, so tests control it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
