// Captures the JSON log lines of services started in this process. pino writes to process.stdout
// (instead of straight to fd 1) when process.stdout.write has been replaced before a logger is
// made, so replacing it before the services start routes every line through here.
export interface LogCapture {
  lines: string[];
  restore(): void;
}

export function captureServiceLogs(): LogCapture {
  const original = process.stdout.write;
  const lines: string[] = [];
  let partial = '';
  const write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString();
    if (!text.startsWith('{"level"') && partial === '') {
      // mocha's own output
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    }
    const all = partial + text;
    const parts = all.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l.length > 0));
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  };
  process.stdout.write = write as typeof process.stdout.write;
  return {
    lines,
    restore() {
      if (partial) lines.push(partial);
      process.stdout.write = original;
    },
  };
}
