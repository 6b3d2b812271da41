// Pino options shared by every service: structured, leveled, and never carrying credentials or secrets.
import type { LoggerOptions } from 'pino'

const SECRET_KEYS = [
  'password', 'token', 'secret', 'data', 'documents', 'KEYSTONE_PASSWORD', 'ENGINE_PASSWORD', 'SERVICE_TOKEN', 'ENCRYPTION_KEY'
]
const HEADERS = [
  '"x-auth-token"', '"X-Auth-Token"', '"x-subject-token"', '"X-Subject-Token"', '"x-service-token"',
  'authorization', 'Authorization', 'cookie'
]

/**
 * Paths pino replaces with `[Redacted]` in every log line: credential headers wherever headers are logged, and the
 * secret-bearing keys (passwords, tokens, document data) at the top level and up to three levels down.
 */
export const REDACT_PATHS = [
  ...['req.headers', 'res.headers', 'headers', '*.headers']
    .flatMap((at) => HEADERS.map((h) => h.startsWith('"') ? `${at}[${h}]` : `${at}.${h}`)),
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]),
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
