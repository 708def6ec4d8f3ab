// Public surface of libs/observability: logger and metrics registry.
export { createLogger, REDACT_PATHS, type Logger, type LoggerConfig } from './logger.ts';
export { createMetricsRegistry, Counter, Gauge, Histogram, Registry } from './metrics.ts';
