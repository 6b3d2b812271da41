// Configuration documents (seed 000 §4.1–4.5): HTTP only — parse, authorize, call the domain, shape the reply.
import type { FastifyInstance } from 'fastify'
import { BadRequestError } from '@slipway/common'
import type { Configdocs } from '../domain/configdocs.ts'
import { parseVersion } from '../domain/configdocs.ts'
import { queryBoolean } from '../domain/format.ts'
import { rule } from '../policy.ts'

type Query = Record<string, string | string[] | undefined>
const single = (q: Query, name: string): string | undefined => { const v = q[name]; return Array.isArray(v) ? v.at(-1) : v }
const COLLECTION = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/

function collectionOf (value: string): string {
  if (!COLLECTION.test(value) || value.includes('..')) {
    throw new BadRequestError('Invalid collection name', 'A collection name is 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit')
  }
  return value
}

export async function configdocsRoutes (app: FastifyInstance, options: { configdocs: Configdocs }): Promise<void> {
  const { configdocs } = options

  app.get('/configdocs', { config: { policy: rule('get_configdocs_status') } }, async (request) => {
    const q = request.query as Query
    return await configdocs.status(q.version, q.versions, request.ctx)
  })

  app.post('/configdocs/:collection_id', { config: { policy: rule('create_configdocs') } }, async (request, reply) => {
    const collection = collectionOf((request.params as { collection_id: string }).collection_id)
    const q = request.query as Query
    const emptyCollection = queryBoolean('empty-collection', single(q, 'empty-collection'))
    // spec §1.3: the content type is not checked (upstream reads every body as YAML; curl's default form type too)
    const body = typeof request.body === 'string' ? request.body : undefined
    const length = Number(request.headers['content-length'] ?? 0)
    const contentType = request.headers['content-type']
    const result = await configdocs.ingest(collection, { body, contentType, bufferMode: single(q, 'buffermode'), emptyCollection, contentLength: Number.isFinite(length) ? length : 0 }, request.ctx)
    return await reply.code(201).header('location', `/api/v1.0/configdocs/${collection}`).send(result)
  })

  app.get('/configdocs/:collection_id', { config: { policy: rule('get_configdocs') } }, async (request, reply) => {
    const collection = collectionOf((request.params as { collection_id: string }).collection_id)
    const q = request.query as Query
    const version = parseVersion(single(q, 'version'))
    const cleartext = queryBoolean('cleartext-secrets', single(q, 'cleartext-secrets'))
    if (cleartext) request.ctx.authorize(rule('get_configdocs_cleartext'))
    return await reply.type('application/x-yaml').send(await configdocs.collection(collection, version, cleartext, request.ctx))
  })

  app.get('/renderedconfigdocs', { config: { policy: rule('get_renderedconfigdocs') } }, async (request, reply) => {
    const q = request.query as Query
    const version = parseVersion(single(q, 'version'))
    const cleartext = queryBoolean('cleartext-secrets', single(q, 'cleartext-secrets'))
    if (cleartext) request.ctx.authorize(rule('get_renderedconfigdocs_cleartext'))
    return await reply.type('application/x-yaml').send(await configdocs.rendered(version, cleartext, request.ctx))
  })

  app.post('/commitconfigdocs', { config: { policy: rule('commit_configdocs') } }, async (request, reply) => {
    const q = request.query as Query
    const result = await configdocs.commit({ force: queryBoolean('force', single(q, 'force')), dryrun: queryBoolean('dryrun', single(q, 'dryrun')) }, request.ctx)
    return await reply.code(result.statusCode).send(result.body)
  })
}
