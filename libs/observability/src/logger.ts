// Structured JSON logs (pino) with the redaction paths for secrets and personal data set once.
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Field names whose values never reach a log line, at the top level or one level down. */
const SENSITIVE_FIELDS = [
  'licensekey',
  'licenseKey',
  'license',
  'requestid',
  'keySecret',
  'keysecret',
  'privateKey',
  'password',
  'clientSecret',
  'client_secret',
  'MASTER_KEY',
  'PKCS11_PIN',
  'pin',
  'secret',
  'token',
  'authorization',
  'credential',
  'ssn',
  'dob',
  'firstName',
  'lastName',
  'middleName',
  'email',
  'phone',
  'street',
];

export const REDACT_PATHS = [
  ...SENSITIVE_FIELDS,
  ...SENSITIVE_FIELDS.map((field) => `*.${field}`),
  ...SENSITIVE_FIELDS.map((field) => `req.headers.${field}`),
  'req.headers.cookie',
];

export interface LoggerConfig {
  service: string;
  level?: LoggerOptions['level'];
  /** a writable destination, for tests that read the lines back */
  destination?: NodeJS.WritableStream;
}

export function createLogger(config: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: config.level ?? process.env.LOG_LEVEL ?? 'info',
    base: { service: config.service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options, config.destination ?? bufferedStdout());
}

/** process.stdout.write replaced (a test reading the lines back): pino then writes through it. */
const stdoutReplaced = () => process.stdout.write !== Object.getPrototypeOf(process.stdout).write;

/** How long a log line may wait in the buffer before it is written. */
const FLUSH_EVERY_MS = 250;

/**
 * Standard output, written in chunks of at least 4 KiB or every FLUSH_EVERY_MS: one write per
 * request or job cost each service about a tenth of a millisecond of CPU at low concurrency
 * (bench/results/history.md). pino writes what is buffered synchronously when the process exits;
 * a process killed outright loses at most the last FLUSH_EVERY_MS of lines.
 */
function bufferedStdout(): pino.DestinationStream {
  if (stdoutReplaced()) return process.stdout;
  if (!shared) {
    const destination = pino.destination({ dest: 1, minLength: 4096, sync: false });
    setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
    shared = destination;
  }
  return shared;
}

/** one buffer per process, whichever loggers write to it, so lines keep their order */
let shared: pino.DestinationStream | undefined;
