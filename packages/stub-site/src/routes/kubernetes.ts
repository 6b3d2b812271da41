// Kubernetes core/v1 nodes: list (selectors, pages), get and label patches, with Kubernetes' Status error objects.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MethodNotAllowedError, NotFoundError, UnsupportedMediaTypeError, toApiError, type ApiError } from '@slipway/common'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { BadPatchError, type KubeDetails } from '../errors.ts'
import type { PatchKind } from '../domain/labels.ts'
import type { Site } from '../domain/site.ts'
import type { KubeStatus } from '../schemas/nodes.ts'
import { toKubeNode, toKubeNodeList } from '../views.ts'

const PATCH_TYPES: Record<string, PatchKind> = {
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic'
}

// Kubernetes' StatusReason for each code the stand-in answers
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout'
}

// where Kubernetes' wording is fixed whatever the cause
const MESSAGES: Record<number, string> = {
  401: 'Unauthorized',
  415: '415: Unsupported Media Type'
}

export function kubeStatus (error: ApiError): KubeStatus {
  const code = error.statusCode
  const status: KubeStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: MESSAGES[code] ?? error.reason,
    reason: REASONS[code] ?? (code >= 500 ? 'InternalError' : 'BadRequest'),
    code
  }
  const details = (error as { kube?: KubeDetails }).kube
  if (details !== undefined) status.details = details
  // a patch type Kubernetes does not take for the resource: details, empty
  else if (code === 415) status.details = {}
  return status
}

async function sendStatus (reply: FastifyReply, error: ApiError): Promise<void> {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
  await reply.code(error.statusCode).type('application/json').send(kubeStatus(error))
}

function patchKind (contentType: string | undefined): PatchKind | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return PATCH_TYPES[mediaType]
}

// a wildcard, not `:name`: the router caps named parameters at 100 characters and node names may have 253
const NodeParams = Type.Object({ '*': Type.String({ maxLength: 253 }) })

function nodeName (params: { '*': string }): string {
  const name = params['*']
  if (name === '' || name.includes('/')) throw new NotFoundError('Not Found', 'the server could not find the requested resource')
  return name
}

export const kubernetesRoutes: FastifyPluginAsyncTypebox<{ site: Site }> = async (app, { site }) => {
  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, request)
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
    await sendStatus(reply, apiError)
  })

  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0] ?? ''
    if (/^\/api\/v1\/nodes$/.test(path)) throw new MethodNotAllowedError(request.method, ['GET'])
    if (/^\/api\/v1\/nodes\/[^/]+$/.test(path)) throw new MethodNotAllowedError(request.method, ['GET', 'PATCH'])
    throw new NotFoundError('Not Found', 'the server could not find the requested resource')
  })

  app.addContentTypeParser(Object.keys(PATCH_TYPES), { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, JSON.parse(body as string))
    } catch (error) {
      // Kubernetes says no more than this, whatever the parser found
      request.log.debug({ err: error }, 'patch is not JSON')
      done(new BadPatchError('invalid JSON patch'), undefined)
    }
  })

  app.get('/nodes', {
    config: { faultable: true },
    schema: {
      querystring: Type.Object({
        labelSelector: Type.Optional(Type.String({ maxLength: 4096 })),
        fieldSelector: Type.Optional(Type.String({ maxLength: 4096 })),
        limit: Type.Optional(Type.Integer({ minimum: 0 })),
        continue: Type.Optional(Type.String({ maxLength: 4096 }))
      })
    }
  }, async (request) => toKubeNodeList(await site.listNodes(request.query)))

  app.get('/nodes/*', { config: { faultable: true }, schema: { params: NodeParams } }, async (request) => {
    const name = nodeName(request.params)
    await site.refreshFor(name)
    return toKubeNode(site.inventory.get(name))
  })

  app.patch('/nodes/*', { config: { faultable: true }, schema: { params: NodeParams } }, async (request) => {
    const name = nodeName(request.params)
    const kind = patchKind(request.headers['content-type'])
    // application/json and json-patch are real Kubernetes patch types the stand-in does not take
    if (kind === undefined) throw new UnsupportedMediaTypeError(request.headers['content-type'], Object.keys(PATCH_TYPES))
    await site.refreshFor(name)
    return toKubeNode(site.inventory.patchLabels(name, request.body, kind))
  })
}
