import { pino, type Logger } from 'pino';

/** One pino logger for the process; modules take children. Credentials never reach the log. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    redact: {
      paths: [
        'req.headers["secret-key"]',
        'req.headers["publishable-key"]',
        'req.headers["anonymous-authorization"]',
        'req.headers["api-key"]',
        'req.headers.authorization',
        'secretKey',
        'apiKey',
        'adminToken',
        'token',
      ],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
