// What the rendering tests share: a site stored as one bucket under a layering policy, and its render's error.
import type { FastifyInstance } from 'fastify'
import { buildTestApp, doc, expectError, get, layeringPolicy, put, type DocSpec } from './app.ts'

export const L3 = ['global', 'region', 'site']

export async function site (docs: DocSpec[], layers = L3): Promise<FastifyInstance> {
  const app = await buildTestApp()
  const res = await put(app, 'site', layeringPolicy(layers) + docs.map(doc).join(''))
  if (res.statusCode !== 200) throw new Error(res.body)
  return app
}

export async function renderError (app: FastifyInstance, status: number, type: string): Promise<any> {
  return expectError(await get(app, '/revisions/1/rendered-documents?cleartext-secrets=true'), status, type)
}

export const merge = (path = '.') => [{ method: 'merge', path }]

/** A substitution from `schema name` at `path` into `dest`. */
export const sub = (schema: string, name: string, path: string, dest: unknown, extra: Record<string, unknown> = {}) =>
  ({ src: { schema, name, path, ...extra }, dest })
