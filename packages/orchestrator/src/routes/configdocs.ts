// Configuration documents: HTTP only — schema, policy, one domain call, the reply's shape.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  BadRequestError, ErrorBodySchema, TextBodySchema, VERSION_NAMES, ValidationStatusBodySchema, textAnswer, type VersionName
} from '@slipway/common'
import type { Stage } from '../domain/configdocs/stage.ts'
import type { Commit } from '../domain/configdocs/commit.ts'
import type { ConfigdocsReads } from '../domain/configdocs/reads.ts'
import {
  BUFFER_MODES, CollectionParamsSchema, CollectionStatusSchema, CommitQuerySchema, DocumentsQuerySchema, IngestQuerySchema,
  StatusQuerySchema, YamlTextSchema, type BufferModeChoice
} from '../schemas/configdocs.ts'
import { rule } from '../policy.ts'

/** `version=a,b`, `versions=a,b` or repeated `versions` (Shipyard reads `versions`, its CLI repeats it;
 * `version` wins): two different names. */
export function comparisonOf (version: string[] | undefined, versions: string[] | undefined): [VersionName, VersionName] {
  const list = (version ?? versions ?? ['committed,buffer'])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '')
  if (list.length !== 2) {
    throw new BadRequestError('Incorrect number of versions for comparison',
      'Exactly two versions must be given, e.g. version=committed,buffer')
  }
  if (list[0] === list[1]) throw new BadRequestError('Versions must be different for comparison', `Both versions are ${list[0] ?? ''}`)
  for (const v of list) {
    if (!(VERSION_NAMES as readonly string[]).includes(v)) {
      throw new BadRequestError('Invalid version detected', `${v} is not one of ${VERSION_NAMES.join(', ')}`)
    }
  }
  return list as [VersionName, VersionName]
}

/** `buffermode` (any letter case; the schema refuses other words): absent is rejectOnContents. */
export function bufferModeOf (value: string | undefined): BufferModeChoice {
  const spelled = value ?? 'rejectOnContents'
  const mode = BUFFER_MODES.find((m) => m.toLowerCase() === spelled.toLowerCase())
  if (mode === undefined) {
    throw new BadRequestError('Invalid buffermode',
      `buffermode must be append, replace or rejectOnContents, got '${spelled}'`)
  }
  return { mode, spelled }
}

/** The configdocs use cases the routes call, one each. */
export interface Configdocs { stage: Stage, commit: Commit, reads: ConfigdocsReads }

export const configdocsRoutes: FastifyPluginAsyncTypebox<{ configdocs: Configdocs }> = async (app, { configdocs }) => {
  app.get('/configdocs', {
    config: { policy: rule('get_configdocs_status') },
    schema: {
      querystring: StatusQuerySchema,
      response: { 200: Type.Array(CollectionStatusSchema), 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request) => await configdocs.reads.status(comparisonOf(request.query.version, request.query.versions), request.ctx))

  app.post('/configdocs/:collection_id', {
    config: { policy: rule('create_configdocs') },
    schema: {
      params: CollectionParamsSchema,
      querystring: IngestQuerySchema,
      // the content type is not checked (Shipyard reads every body as YAML; curl's default form type too)
      consumes: ['application/x-yaml'],
      body: TextBodySchema,
      response: { 201: ValidationStatusBodySchema, 400: Type.Union([ErrorBodySchema, ValidationStatusBodySchema]), 409: ErrorBodySchema }
    }
  }, async (request, reply) => {
    const collection = request.params.collection_id
    const length = Number(request.headers['content-length'] ?? 0)
    const result = await configdocs.stage(collection, {
      body: typeof request.body === 'string' ? request.body : undefined,
      contentType: request.headers['content-type'],
      bufferMode: bufferModeOf(request.query.buffermode),
      emptyCollection: request.query['empty-collection'],
      contentLength: Number.isFinite(length) ? length : 0
    }, request.ctx)
    return await reply.code(201).header('location', `/api/v1.0/configdocs/${collection}`).send(result)
  })

  app.get('/configdocs/:collection_id', {
    config: { policy: rule('get_configdocs') },
    schema: {
      params: CollectionParamsSchema,
      querystring: DocumentsQuerySchema,
      // 409: the secrets cannot be read in cleartext (the revision does not render)
      response: { 200: textAnswer('application/x-yaml', YamlTextSchema), 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema }
    }
  }, async (request, reply) => {
    const cleartext = request.query['cleartext-secrets']
    if (cleartext) request.ctx.authorize(rule('get_configdocs_cleartext'))
    const text = await configdocs.reads.collection(request.params.collection_id, request.query.version, cleartext, request.ctx)
    return await reply.type('application/x-yaml').send(text)
  })

  app.get('/renderedconfigdocs', {
    config: { policy: rule('get_renderedconfigdocs') },
    schema: {
      querystring: DocumentsQuerySchema,
      response: { 200: textAnswer('application/x-yaml', YamlTextSchema), 400: ErrorBodySchema, 404: ErrorBodySchema }
    }
  }, async (request, reply) => {
    const cleartext = request.query['cleartext-secrets']
    if (cleartext) request.ctx.authorize(rule('get_renderedconfigdocs_cleartext'))
    return await reply.type('application/x-yaml').send(await configdocs.reads.rendered(request.query.version, cleartext, request.ctx))
  })

  app.post('/commitconfigdocs', {
    config: { policy: rule('commit_configdocs') },
    schema: {
      querystring: CommitQuerySchema,
      response: {
        200: ValidationStatusBodySchema,
        400: Type.Union([ValidationStatusBodySchema, ErrorBodySchema]),
        409: ErrorBodySchema
      }
    }
  }, async (request, reply) => {
    const { force, dryrun, 'buffer-revision': revision } = request.query
    const bufferRevision = revision === undefined ? undefined : Number(revision)
    const result = await configdocs.commit({ force, dryrun, bufferRevision }, request.ctx)
    // a dry run answers 200 whatever the validations found; a commit refused by them, 400
    return await reply.code(result.committed || dryrun ? 200 : 400).send(result.body)
  })
}
