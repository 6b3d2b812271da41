// Deckhand's errors: one class carrying the status, the error type name clients read, and the message
// list; and the one error body (Deckhand's Status) every failure is rendered as.
import { ApiError, apiVersionOf, statusLine, type ErrorEntry } from '@slipway/common'

/** An error Deckhand would raise: `errorType` is its class name (`RevisionNotFound`, `HTTPBadRequest`…). */
export class StoreError extends ApiError {
  constructor (statusCode: number, errorType: string, message: string, options: { reason?: string, messageList?: ErrorEntry[] } = {}) {
    super(statusCode, message, options.reason ?? 'Unspecified', {
      errorType,
      retry: statusCode === 500,
      ...(options.messageList === undefined ? {} : { errorList: options.messageList })
    })
  }
}

/** `errorType` is `RevisionNotFound` except where upstream names another (the documents listing: `HTTPNotFound`). */
export const revisionNotFound = (id: string | number, errorType = 'RevisionNotFound'): StoreError =>
  new StoreError(404, errorType, `The requested revision=${id} was not found.`)

export const badRequest = (message: string, errorType = 'HTTPBadRequest'): StoreError =>
  new StoreError(400, errorType, message)

export const invalidInput = (value: string): StoreError =>
  new StoreError(400, 'InvalidInputException', `Failed to process request due to invalid input: ${value}`)

/** A document-validation failure (D001/D002 entries, `reason: Validation`). */
export const invalidDocumentFormat = (entries: ErrorEntry[], statusCode = 400): StoreError =>
  new StoreError(statusCode, 'InvalidDocumentFormat', 'The provided documents failed schema validation.', {
    reason: 'Validation',
    messageList: entries
  })

export interface StoreErrorBody {
  kind: 'Status'
  apiVersion: string
  metadata: Record<string, never>
  status: 'Failure'
  message: string
  reason: string
  code: string
  retry: boolean
  details: { errorType: string, errorCount: number, messageList: ErrorEntry[] }
}

/** Deckhand's error body: every entry has `message` and `error: true`; no list → one entry of the message. */
export function storeErrorBody (error: ApiError, url: string): StoreErrorBody {
  const list = error.errorList ?? [{ message: error.message }]
  const messageList = list.map((entry) => ({ ...entry, error: entry.error ?? true }))
  return {
    kind: 'Status',
    apiVersion: apiVersionOf(url),
    metadata: {},
    status: 'Failure',
    message: error.message,
    reason: error instanceof StoreError ? error.reason : 'Unspecified',
    code: statusLine(error.statusCode),
    retry: error.statusCode === 500,
    details: { errorType: error.errorType, errorCount: messageList.length, messageList }
  }
}
