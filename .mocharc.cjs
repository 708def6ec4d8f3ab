// Mocha's settings. `mocha` alone runs the whole suite; `mocha path/to/some.test.ts` runs just the
// files it names (a .mocharc.json spec would be added to them, running everything each time).
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.ts$/.test(arg));

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
      }),
  timeout: 20000,
  exit: true,
  reporter: './test/support/reporter.cjs',
};
