// The process's resident memory around a piece of work: before, after and the peak, sampled
// every few milliseconds (a blocked event loop takes no samples, which the elapsed time shows).
export interface MemoryUse {
  elapsedMs: number;
  beforeMb: number;
  peakMb: number;
  grewMb: number;
}

export async function measureMemory<T>(work: () => Promise<T>): Promise<[T, MemoryUse]> {
  const mb = () => process.memoryUsage.rss() / 2 ** 20;
  const beforeMb = mb();
  let peakMb = beforeMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, mb())), 2);
  const started = Date.now();
  try {
    const result = await work();
    peakMb = Math.max(peakMb, mb());
    const elapsedMs = Date.now() - started;
    return [
      result,
      {
        elapsedMs,
        beforeMb: round(beforeMb),
        peakMb: round(peakMb),
        grewMb: round(peakMb - beforeMb),
      },
    ];
  } finally {
    clearInterval(sampler);
  }
}

const round = (n: number) => Math.round(n * 10) / 10;
