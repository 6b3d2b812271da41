import { describe, expect, it } from 'vitest'
import {
  ApiError, BadRequestError, ConflictError, DownstreamError, ForbiddenError, InternalError, MethodNotAllowedError,
  NotFoundError, PayloadTooLargeError, ServiceUnavailableError, UnauthenticatedError, UnsupportedMediaTypeError,
  apiVersionOf, errorBody, statusLine, validationStatusBody
} from '../src/errors.ts'

describe('error classes', () => {
  const cases: Array<[ApiError, number, string, string]> = [
    [new BadRequestError('Invalid verbosity parameter', 'should be 0 to 5'), 400, '400 Bad Request', 'Invalid verbosity parameter'],
    [new UnauthenticatedError(), 401, '401 Unauthorized', 'Unauthenticated'],
    [new ForbiddenError(), 403, '403 Forbidden', 'Forbidden'],
    [new NotFoundError('Action X does not exist'), 404, '404 Not Found', 'Action X does not exist'],
    [new MethodNotAllowedError('PUT', ['GET', 'OPTIONS']), 405, '405 Method Not Allowed', 'Method Not Allowed'],
    [new ConflictError('Unable to pause action', 'The run is failed'), 409, '409 Conflict', 'Unable to pause action'],
    [new PayloadTooLargeError(1024), 413, '413 Payload Too Large', 'Payload Too Large'],
    [new UnsupportedMediaTypeError('text/csv', ['application/json']), 415, '415 Unsupported Media Type', 'Unsupported Media Type'],
    [new InternalError('Unhandled Exception raised'), 500, '500 Internal Server Error', 'Unhandled Exception raised'],
    [new ServiceUnavailableError('Identity service unavailable'), 503, '503 Service Unavailable', 'Identity service unavailable'],
    [new DownstreamError('store', 'connection refused', { failure: 'unreachable' }), 503, '503 Service Unavailable', 'Downstream failure: store'],
    [new DownstreamError('engine', 'no answer in 10 ms', { failure: 'timeout' }), 504, '504 Gateway Timeout', 'Downstream failure: engine'],
    [new DownstreamError('provisioner', 'answered 500'), 502, '502 Bad Gateway', 'Downstream failure: provisioner']
  ]
  it.each(cases)('%o renders status %i with code %s', (error, status, code, message) => {
    expect(error.statusCode).toBe(status)
    const body = errorBody(error, '/api/v1.0/actions')
    expect(body).toMatchObject({ apiVersion: 'v1.0', status: 'Failure', kind: 'status', metadata: {}, message, code })
    expect(body.details.errorType).toBeTypeOf('string')
    expect(body.details.errorCount).toBe(1)
    expect(body.details.errorList).toEqual(body.details.messageList)
    expect(body.details.errorList[0]).toEqual({ message: error.reason, error: true })
    expect(typeof body.retry).toBe('boolean')
  })

  it('uses the message as reason for a single error given no reason', () => {
    const body = errorBody(new NotFoundError('Note 01H does not exist'))
    expect(body.reason).toBe('Note 01H does not exist')
  })

  it('lists every error entry and appends informational ones with error false', () => {
    const error = new BadRequestError('Invalid input', 'two problems', {
      errorList: [{ message: 'a is missing' }, { message: 'b is not a number', field: 'b' }],
      infoList: [{ message: 'c was ignored' }]
    })
    const body = errorBody(error, '/api/v1.0/x')
    expect(body.details.errorCount).toBe(2)
    expect(body.details.messageList).toEqual([
      { message: 'a is missing', error: true },
      { message: 'b is not a number', field: 'b', error: true },
      { message: 'c was ignored', error: false }
    ])
  })

  it('names the component and sets retry for unreachable and timed-out downstreams only', () => {
    const down = new DownstreamError('store', 'refused', { failure: 'unreachable' })
    expect(down.component).toBe('store')
    expect(errorBody(down).retry).toBe(true)
    expect(errorBody(new DownstreamError('store', 'garbage')).retry).toBe(false)
    expect(errorBody(new DownstreamError('store', 'garbage')).details.errorType).toBe('DownstreamError')
  })

  it('carries the Allow header on 405', () => {
    expect(new MethodNotAllowedError('PUT', ['GET', 'OPTIONS']).headers).toEqual({ allow: 'GET, OPTIONS' })
  })
})

describe('statusLine and apiVersionOf', () => {
  it('formats the status with its phrase', () => {
    expect(statusLine(409)).toBe('409 Conflict')
    expect(statusLine(599)).toBe('599 Unknown')
  })
  it('finds the version segment or answers N/A', () => {
    expect(apiVersionOf('/api/v1.0/actions?verbosity=2')).toBe('v1.0')
    expect(apiVersionOf('/versions')).toBe('N/A')
  })
})

describe('validationStatusBody', () => {
  it('is a Success with 200 and no errors', () => {
    expect(validationStatusBody([])).toEqual({
      kind: 'Status',
      apiVersion: 'v1.0',
      metadata: {},
      status: 'Success',
      message: 'Validations succeeded',
      reason: 'Validation',
      details: { errorCount: 0, messageList: [] },
      code: '200 OK'
    })
  })
  it('is a Failure with 400 counting only error entries', () => {
    const body = validationStatusBody([
      { name: 'Promenade', error: true, message: 'bad' },
      { name: 'Deckhand', error: false, message: 'fine' }
    ])
    expect(body).toMatchObject({ status: 'Failure', message: 'Validations failed', code: '400 Bad Request', details: { errorCount: 1 } })
  })
  it('lets the caller force the status and message (forced commit)', () => {
    const body = validationStatusBody([{ name: 'X', error: true, message: 'bad' }], { statusCode: 200, message: 'Validations failed FORCED SUCCESS' })
    expect(body).toMatchObject({ status: 'Failure', code: '200 OK', message: 'Validations failed FORCED SUCCESS' })
  })
})
