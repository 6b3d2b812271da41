// Armada's API v1.0 (health, releases, apply, tests, validatedesign) under /armada/api/v1.0, answering as Armada
// does: its own errors as {type: "error", message, retry}, validations as its Status body; and the stand-in's
// control routes under /_stub/armada.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { acceptAllBodiesAsText, parseYamlDocuments } from '@slipway/common'
import { Type } from 'typebox'
import type { Armada } from '../domain/armada/armada.ts'
import { ArmadaError } from '../domain/armada/errors.ts'
import {
  ApplyAnswerSchema, ApplyQuerySchema, ArmadaErrorBodySchema, ArmadaFaultsSchema, ArmadaReleaseSchema, ArmadaStatusSchema,
  ReleasesAnswerSchema, TestAnswerSchema, TestsAnswerSchema, TRUE_PARAMS, type ApplyQuery
} from '../schemas/armada.ts'

const flag = (value: string | undefined): boolean => value !== undefined && TRUE_PARAMS.includes(value)

function mediaType (header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** A YAML stream body; bad YAML is the caller's fault (400), as Armada's test route says. */
function yamlDocuments (body: unknown): unknown[] {
  if (typeof body !== 'string' || body.trim() === '') return []
  try {
    return parseYamlDocuments(body).filter((d) => d !== null)
  } catch {
    throw new ArmadaError(400, 'Documents must be valid YAML.')
  }
}

function jsonBody (body: unknown): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = typeof body === 'string' && body !== '' ? JSON.parse(body) : {}
  } catch {
    throw new ArmadaError(400, 'Invalid JSON in body')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ArmadaError(400, 'The body must be a JSON object')
  return parsed as Record<string, unknown>
}

const strings = (value: unknown): string[] | undefined => {
  if (typeof value === 'string') return value === '' ? [] : [value]
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined
}

function applyRequest (query: ApplyQuery, overrides: string[]) {
  return {
    target: query.target_manifest,
    overrides,
    dryRun: flag(query.dry_run),
    enableChartCleanup: flag(query.enable_chart_cleanup),
    wait: flag(query.wait)
  }
}

export const armadaRoutes: FastifyPluginAsyncTypebox<{ armada: Armada }> = async (app, { armada }) => {
  // Armada reads each body by its content type itself
  acceptAllBodiesAsText(app)

  app.setErrorHandler(async (error, request, reply) => {
    // anything else (validation, auth, injected faults) is the service's usual error body
    if (!(error instanceof ArmadaError)) throw error
    if (error.statusCode >= 500) request.log.warn({ err: error.message }, 'armada request failed')
    await reply.code(error.statusCode).type('application/json').send({ type: 'error', message: error.message, retry: error.retry })
  })

  app.get('/health', { config: { public: true, faultable: true } }, async (_request, reply) => { await reply.code(204).send() })

  app.get('/releases', {
    config: { faultable: true },
    schema: { response: { 200: ReleasesAnswerSchema } }
  }, async () => ({ releases: armada.releases() }))

  app.post('/apply', {
    config: { faultable: true },
    schema: { querystring: ApplyQuerySchema, response: { 200: ApplyAnswerSchema } }
  }, async (request) => {
    const type = mediaType(request.headers['content-type'])
    if (type === 'application/x-yaml') {
      const documents = yamlDocuments(request.body)
      return { message: armada.applyDocuments(documents, applyRequest(request.query, [])) }
    }
    if (type !== 'application/json') throw new ArmadaError(415, 'Request must be in application/x-yaml or application/json')
    const body = jsonBody(request.body)
    const hrefs = strings(body.hrefs)
    if (hrefs === undefined || hrefs.length === 0) throw new ArmadaError(400, "Request did not contain 'hrefs'.")
    const overrides = body.overrides === undefined || body.overrides === null ? [] : strings(body.overrides)
    if (overrides === undefined) throw new ArmadaError(400, 'overrides must be a list of strings')
    return { message: await armada.applyReferences(hrefs, applyRequest(request.query, overrides), request.ctx) }
  })

  const testSchema = { response: { 200: TestAnswerSchema } }
  app.get('/test/:release', {
    config: { faultable: true },
    schema: { params: Type.Object({ release: Type.String({ minLength: 1, maxLength: 253 }) }), ...testSchema }
  }, async (request) => armada.testRelease(request.params.release))

  // Armada's Helm 3 releases are named by namespace too
  app.get('/test/:namespace/:release', {
    config: { faultable: true },
    schema: {
      params: Type.Object({
        namespace: Type.String({ minLength: 1, maxLength: 253 }),
        release: Type.String({ minLength: 1, maxLength: 253 })
      }),
      ...testSchema
    }
  }, async (request) => armada.testRelease(request.params.release, request.params.namespace))

  app.post('/tests', {
    config: { faultable: true },
    schema: {
      querystring: Type.Object({
        target_manifest: Type.Optional(Type.String({ minLength: 1, maxLength: 253 }))
      }, { additionalProperties: true }),
      // a refused design is the Status; bad YAML Armada's error body
      response: { 200: TestsAnswerSchema, 400: Type.Union([ArmadaStatusSchema, ArmadaErrorBodySchema]) }
    }
  }, async (request, reply) => {
    const outcome = armada.testManifest(yamlDocuments(request.body), request.query.target_manifest)
    if ('refused' in outcome) return await reply.code(400).send(outcome.refused)
    return outcome.answer
  })

  app.post('/validatedesign', {
    config: { faultable: true },
    // no response schema: a 400 is either the Status or Armada's error body
    schema: {}
  }, async (request, reply) => {
    let status
    if (mediaType(request.headers['content-type']) === 'application/json') {
      const href = jsonBody(request.body).href
      if (typeof href !== 'string' || href === '') throw new ArmadaError(400, 'Failed to validate Armada Manifest')
      try {
        status = await armada.validateReference(href, request.ctx)
      } catch (error) {
        // Armada answers any failure to read or validate the design so
        request.log.warn({ err: (error as Error).message }, 'design not validated')
        throw new ArmadaError(400, 'Failed to validate Armada Manifest')
      }
    } else {
      status = armada.validateDocuments(yamlDocuments(request.body))
    }
    return await reply.code(status.code).send(status)
  })
}

export const armadaControlRoutes: FastifyPluginAsyncTypebox<{ armada: Armada }> = async (app, { armada }) => {
  app.get('/faults', { schema: { response: { 200: ArmadaFaultsSchema } } }, async () => armada.faults.get())

  app.put('/faults', { schema: { body: ArmadaFaultsSchema, response: { 200: ArmadaFaultsSchema } } },
    async (request) => armada.faults.set(request.body))

  app.get('/releases', { schema: { response: { 200: Type.Array(ArmadaReleaseSchema) } } }, async () => armada.store.list())

  app.delete('/releases', async (_request, reply) => {
    armada.store.clear()
    await reply.code(204).send()
  })
}
