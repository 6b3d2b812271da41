// Query strings of the orchestrator's routes. Every parameter is optional on the wire; one with a default (verbosity,
// a version name, the seed's booleans) is filled in by validation when the request leaves it out, so the handler
// always has a value and never supplies one of its own. `withDefault` marks such a parameter, `QuerySchema` types
// the route's query so: what has a default is always there, the rest may be missing. Every route's query starts
// with verbosity.
import { Type, type Static, type TObject, type TOptional, type TProperties, type TSchema, type TUnsafe } from 'typebox'
import { VerbositySchema } from '@slipway/common'

// a mark for the type checker only: no schema object carries it
declare const FILLED: unique symbol

/** A query parameter that validation fills in with its default when it is absent. */
export type Filled<T extends TSchema> = TOptional<T> & { readonly [FILLED]: true }

/** An optional query parameter whose schema has a default; one without a default is a mistake, refused at load. */
export function withDefault<T extends TSchema> (schema: T): Filled<T> {
  if (!Object.hasOwn(schema, 'default')) throw new TypeError('withDefault: the schema has no default')
  return Type.Optional(schema) as unknown as Filled<T>
}

type FilledKeys<P extends TProperties> = { [K in keyof P]: P[K] extends { readonly [FILLED]: true } ? K : never }[keyof P]

/** The query as the handler reads it: the parameters with a default always present. */
export type QueryOf<P extends TProperties> = Omit<Static<TObject<P>>, FilledKeys<P>> & { [K in FilledKeys<P>]-?: Static<P[K]> }

/** `verbosity`, which every resource takes: 0 to 5, default 1. */
const Verbosity = withDefault(VerbositySchema)

type WithVerbosity<P extends TProperties> = { verbosity: typeof Verbosity } & P

/**
 * A route's query string schema: verbosity, then `properties`, typed as QueryOf. Verbosity comes first so that a bad
 * one is the error answered, whatever else of the query is wrong.
 */
export function QuerySchema<P extends TProperties> (properties: P): TUnsafe<QueryOf<WithVerbosity<P>>> {
  return Type.Unsafe<QueryOf<WithVerbosity<P>>>(Type.Object({ verbosity: Verbosity, ...properties }))
}

/** The query of a route that takes nothing but verbosity. */
export const VerbosityOnlySchema = QuerySchema({})
