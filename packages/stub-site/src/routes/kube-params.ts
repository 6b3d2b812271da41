// What the Kubernetes route files share: list query strings, object names taken from a wildcard, and the 404 of a
// path the API server does not serve.
import { NotFoundError } from '@slipway/common'
import { Type } from 'typebox'

export const ListQuerySchema = Type.Object({
  labelSelector: Type.Optional(Type.String({ maxLength: 4096 })),
  fieldSelector: Type.Optional(Type.String({ maxLength: 4096 })),
  limit: Type.Optional(Type.Integer({ minimum: 0 })),
  continue: Type.Optional(Type.String({ maxLength: 4096 }))
})

// a wildcard, not `:name`: the router caps named parameters at 100 characters and object names may have 253
export const NamespacedParams = Type.Object({
  namespace: Type.String({ maxLength: 63 }),
  '*': Type.String({ maxLength: 300 })
})

export function notServed (): NotFoundError {
  return new NotFoundError('Not Found', 'the server could not find the requested resource')
}

/** The object name the wildcard holds; a path with more segments is not one the API serves. */
export function objectName (params: { '*': string }): string {
  const name = params['*']
  if (name === '' || name.includes('/')) throw notServed()
  return name
}
