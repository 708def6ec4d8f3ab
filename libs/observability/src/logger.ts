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
  return config.destination ? pino(options, config.destination) : pino(options);
}
