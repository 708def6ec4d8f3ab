// Mocha's settings. `mocha` alone runs the whole suite; `mocha path/to/some.test.ts` runs just the
// files it names (a .mocharc.json spec would be added to them, running everything each time).
// options whose next argument is their value, not a file to run
const TAKES_VALUE = new Set([
  '--require',
  '-r',
  '--file',
  '--ignore',
  '--reporter',
  '-R',
  '--grep',
  '-g',
]);
const named = process.argv
  .slice(2)
  .some(
    (arg, i, args) =>
      !arg.startsWith('-') && /\.ts$/.test(arg) && !TAKES_VALUE.has(args[i - 1] ?? ''),
  );

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  'forbid-only': true,
  ...(named
    ? {}
    : {
        spec: [
          'contracts/test/**/*.test.ts',
          'libs/*/test/**/*.test.ts',
          'services/*/test/**/*.test.ts',
          'test/**/*.test.ts',
        ],
        // the whole suite: one file per worker process, as many workers as cores (at least 2,
        // at most 4: the suites share one PostgreSQL and one RabbitMQ); every suite has its own
        // database, queues and ports, so files run side by side. 8 min instead of 17 on 2 cores.
        parallel: true,
        jobs: Math.min(4, Math.max(2, require('node:os').availableParallelism())),
      }),
  timeout: 20000,
  exit: true,
  reporter: './libs/testing/src/reporter.cjs',
};
