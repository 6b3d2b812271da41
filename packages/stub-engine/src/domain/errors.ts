// Engine errors named by condition; the HTTP layer renders them as Airflow's `detail` bodies.
import type { ValidationError } from '@slipway/airflow-contract'

/** Base: `detail` is a string or, for the unique-constraint case, an object. */
export class EngineError extends Error {
  readonly detail: string | Record<string, unknown>
  constructor (detail: string | Record<string, unknown>) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail))
    this.name = 'EngineError'
    this.detail = detail
  }
}

export class NotFound extends EngineError { override name = 'NotFound' }
export class BadRequest extends EngineError { override name = 'BadRequest' }
export class Conflict extends EngineError { override name = 'Conflict' }
export class Forbidden extends EngineError { override name = 'Forbidden' }
export class Unauthenticated extends EngineError { override name = 'Unauthenticated' }
export class UnsupportedMediaType extends EngineError { override name = 'UnsupportedMediaType' }
/** A 422 whose `detail` is a text, not a list (the simple auth manager's login body). */
export class UnprocessableText extends EngineError { override name = 'UnprocessableText' }

/** A request that fails the schema the way FastAPI/pydantic reports it: a list of located errors. */
export class Unprocessable extends Error {
  readonly errors: ValidationError[]
  constructor (errors: ValidationError[]) {
    super(errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; '))
    this.name = 'Unprocessable'
    this.errors = errors
  }
}

/**
 * The 409 body Airflow gives for a duplicate key (its database's unique-constraint error), naming the columns of the
 * violated key.
 */
export function uniqueConstraintDetail (
  table: string, requestId: string, columns: string[] = ['dag_id', 'run_id']
): Record<string, unknown> {
  return {
    reason: 'Unique constraint violation',
    statement: `INSERT INTO ${table} (...) VALUES (...)`,
    orig_error: `UNIQUE constraint failed: ${columns.map((c) => `${table}.${c}`).join(', ')}`,
    message: `Serious error when handling your request. Check logs for more details - you will find it in api server when you look for ID ${requestId}`
  }
}
