// Pino options shared by every service: structured, leveled, and never carrying credentials or secrets.
import type { LoggerOptions } from 'pino'

/** Paths pino replaces with `[Redacted]` in every log line. */
export const REDACT_PATHS = [
  'req.headers["x-auth-token"]',
  'req.headers["x-subject-token"]',
  'req.headers["x-service-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["x-subject-token"]',
  'headers["x-auth-token"]',
  'headers.authorization',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'data',
  '*.data',
  'documents',
  '*.documents',
  'body'
]

/** Logger options for a service: level from config, secrets redacted, service name on every line. */
export function loggerOptions (options: { service: string, level?: string }): LoggerOptions {
  return {
    level: options.level ?? 'info',
    base: { service: options.service },
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' }
  }
}
