// Errors named by condition, and the one error body every service answers with (the interface's, with the
// fields Shipyard's and Promenade's clients read). Framework-free: the Fastify plugin renders them.
import { STATUS_CODES } from 'node:http'

/** One entry of an error's list; `error` defaults to true. */
export interface ErrorEntry {
  message: string
  error?: boolean
  [field: string]: unknown
}

export interface ApiErrorOptions {
  /** Entries for `details.errorList`/`messageList`; default: one entry carrying the reason. */
  errorList?: ErrorEntry[]
  /** Informational entries appended to `messageList` with `error: false`. */
  infoList?: ErrorEntry[]
  /** Hint to the client that the same request may succeed later. */
  retry?: boolean
  /** `details.errorType`; default `ApiError`. */
  errorType?: string
  /** Extra response headers (e.g. `WWW-Authenticate`, `Allow`). */
  headers?: Record<string, string>
  cause?: unknown
}

/**
 * An error with an HTTP status: `message` is the body's summary (the error's title), `reason` its cause.
 * Every error a service throws on purpose is one of these.
 */
export class ApiError extends Error {
  readonly statusCode: number
  readonly reason: string
  readonly errorList: ErrorEntry[] | undefined
  readonly infoList: ErrorEntry[]
  readonly retry: boolean
  readonly errorType: string
  readonly headers: Record<string, string>

  constructor (statusCode: number, message: string, reason?: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.statusCode = statusCode
    this.reason = reason ?? message
    this.errorList = options.errorList
    this.infoList = options.infoList ?? []
    this.retry = options.retry ?? false
    this.errorType = options.errorType ?? 'ApiError'
    this.headers = options.headers ?? {}
  }
}

/** 400: malformed or missing input. */
export class BadRequestError extends ApiError {
  constructor (message: string, reason?: string, options?: ApiErrorOptions) { super(400, message, reason, options) }
}

/** 401: no valid credentials (the token is missing or invalid). The auth plugin adds `WWW-Authenticate`. */
export class UnauthenticatedError extends ApiError {
  constructor (options?: ApiErrorOptions) { super(401, 'Unauthenticated', 'Credentials are not established', options) }
}

/** 403: valid credentials that the policy rule does not allow. */
export class ForbiddenError extends ApiError {
  constructor (options?: ApiErrorOptions) { super(403, 'Forbidden', 'Credentials do not permit access', options) }
}

/** 404: the thing asked for does not exist. */
export class NotFoundError extends ApiError {
  constructor (message: string, reason?: string, options?: ApiErrorOptions) { super(404, message, reason, options) }
}

/** 405: a known path with a method it does not serve. */
export class MethodNotAllowedError extends ApiError {
  constructor (method: string, allowed: string[], options?: ApiErrorOptions) {
    super(405, 'Method Not Allowed', `${method} is not allowed here; allowed: ${allowed.join(', ')}`, {
      errorType: 'HTTPMethodNotAllowed',
      ...options,
      headers: { allow: allowed.join(', '), ...options?.headers }
    })
  }
}

/** 409: the request conflicts with the current state (a lock, a buffer, a run state). */
export class ConflictError extends ApiError {
  constructor (message: string, reason?: string, options?: ApiErrorOptions) { super(409, message, reason, options) }
}

/** 413: the body is larger than the service accepts. */
export class PayloadTooLargeError extends ApiError {
  constructor (limitBytes: number, options?: ApiErrorOptions) {
    super(413, 'Payload Too Large', `The request body exceeds the limit of ${limitBytes} bytes`, options)
  }
}

/** How a message names a request's content type: quoted, or `(none)` when the request sent none. */
function shownContentType (contentType: string | undefined): string {
  return contentType === undefined || contentType === '' ? '(none)' : `'${contentType}'`
}

/** 415: a body in a content type the route does not take. */
export class UnsupportedMediaTypeError extends ApiError {
  constructor (contentType: string | undefined, accepted: string[], options?: ApiErrorOptions) {
    super(415, 'Unsupported Media Type',
      `Content type ${shownContentType(contentType)} is not supported; use ${accepted.join(' or ')}`,
      options)
  }
}

/** 500: a failure that is ours; the body never carries internals. */
export class InternalError extends ApiError {
  constructor (message: string, reason?: string, options?: ApiErrorOptions) {
    super(500, message, reason, { retry: true, ...options })
  }
}

/** 503: a dependency the service needs for every request is unavailable (e.g. the identity service). */
export class ServiceUnavailableError extends ApiError {
  constructor (message: string, reason?: string, options?: ApiErrorOptions) {
    super(503, message, reason, { retry: true, ...options })
  }
}

/** How a downstream call failed; chooses the status: 503 unreachable, 504 timed out, 502 bad answer. */
export type DownstreamFailure = 'unreachable' | 'timeout' | 'bad-response'

const DOWNSTREAM_STATUS: Record<DownstreamFailure, number> = { unreachable: 503, timeout: 504, 'bad-response': 502 }

/** A 5xx naming the component that failed (`store`, `engine`, `bootstrap`, `provisioner`, `identity`, ...). */
export class DownstreamError extends ApiError {
  readonly component: string
  readonly failure: DownstreamFailure
  /** Status the component answered with, when it answered. */
  readonly upstreamStatus: number | undefined
  /** What the component answered (its body, cut short): for logs and callers, never for the error body. */
  readonly upstreamText: string | undefined

  constructor (component: string, reason: string, options: ApiErrorOptions & {
    failure?: DownstreamFailure
    upstreamStatus?: number
    upstreamText?: string
    statusCode?: number
  } = {}) {
    const failure = options.failure ?? 'bad-response'
    super(options.statusCode ?? DOWNSTREAM_STATUS[failure], `Downstream failure: ${component}`, reason, {
      retry: failure !== 'bad-response',
      errorType: 'DownstreamError',
      ...options
    })
    this.component = component
    this.failure = failure
    this.upstreamStatus = options.upstreamStatus
    this.upstreamText = options.upstreamText
  }
}

/** `"409 Conflict"`: a status code with its reason phrase. */
export function statusLine (statusCode: number): string {
  return `${statusCode} ${STATUS_CODES[statusCode] ?? 'Unknown'}`
}

/** The first path segment that starts with `v` and holds a dot (`v1.0`), else `N/A`. */
export function apiVersionOf (url: string): string {
  const path = url.split('?')[0] ?? ''
  return path.split('/').find((segment) => segment.startsWith('v') && segment.includes('.')) ?? 'N/A'
}

export interface ErrorBody {
  apiVersion: string
  status: 'Failure'
  kind: string
  metadata: Record<string, never>
  message: string
  reason: string
  code: string
  details: {
    errorCount: number
    errorList: Array<{ message: string, error: boolean }>
    messageList: Array<{ message: string, error: boolean }>
    errorType: string
  }
  retry: boolean
}

/**
 * The interface's error body with the upstream additions (`messageList`, `retry`): the entries go under both
 * `errorList` (the interface's name) and `messageList` (what Shipyard's and Promenade's clients read).
 */
export function errorBody (error: ApiError, url = ''): ErrorBody {
  const errors = (error.errorList ?? [{ message: error.reason === '' ? error.message : error.reason }])
    .map((entry) => ({ ...entry, message: entry.message ?? error.message, error: true }))
  const infos = error.infoList.map((entry) => ({ ...entry, error: false }))
  const entries = [...errors, ...infos]
  return {
    apiVersion: apiVersionOf(url),
    status: 'Failure',
    // upstream (Shipyard, Promenade) writes error bodies with a lowercase kind; validation bodies keep `Status`
    kind: 'status',
    metadata: {},
    message: error.message,
    reason: error.reason,
    code: statusLine(error.statusCode),
    details: {
      errorCount: errors.length,
      errorList: entries,
      messageList: entries,
      errorType: error.errorType
    },
    retry: error.retry
  }
}

/** One validating component's message, as Shipyard aggregates them and Promenade's validatedesign answers them. */
export interface ValidationMessage {
  kind?: 'ValidationMessage'
  name: string | null
  error: boolean
  message: string
  level?: string
  diagnostic?: unknown
  documents?: Array<Record<string, unknown>>
  source?: string
  [field: string]: unknown
}

export interface ValidationStatusBody {
  kind: 'Status'
  apiVersion: string
  metadata: Record<string, never>
  status: 'Success' | 'Failure'
  message: string
  reason: 'Validation'
  details: { errorCount: number, messageList: ValidationMessage[] }
  code: string
}

/**
 * The validation aggregate body (a commit's, a validatedesign's): `Success` when no entry is an error, else `Failure`.
 * `statusCode` defaults to 200 on success and 400 on failure; `message` to `Validations succeeded|failed`.
 */
export function validationStatusBody (messageList: ValidationMessage[], options: {
  statusCode?: number
  message?: string
  apiVersion?: string
} = {}): ValidationStatusBody {
  const errorCount = messageList.filter((m) => m.error).length
  const failed = errorCount > 0
  return {
    kind: 'Status',
    apiVersion: options.apiVersion ?? 'v1.0',
    metadata: {},
    status: failed ? 'Failure' : 'Success',
    message: options.message ?? (failed ? 'Validations failed' : 'Validations succeeded'),
    reason: 'Validation',
    details: { errorCount, messageList },
    code: statusLine(options.statusCode ?? (failed ? 400 : 200))
  }
}
