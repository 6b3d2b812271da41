// The stand-in's Kubernetes API: its Status error objects, the patch body parser, the methods each path allows, and
// core/v1 nodes (list with selectors and pages, get, label and cordon patches, delete); pods and ConfigMaps are in
// kube-pods.ts and kube-configmaps.ts, registered here so that they answer errors the same way.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MethodNotAllowedError, UnsupportedMediaTypeError, toApiError, type ApiError } from '@slipway/common'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { BadPatchError, type KubeDetails } from '../errors.ts'
import type { ConfigMaps } from '../domain/configmaps.ts'
import type { Pods } from '../domain/pods.ts'
import type { Site } from '../domain/site.ts'
import type { KubeStatus } from '../schemas/nodes.ts'
import { deletedStatus } from '../kube-views.ts'
import { toKubeNode, toKubeNodeList } from '../views.ts'
import { kubeConfigMapRoutes } from './kube-configmaps.ts'
import { ListQuerySchema, notServed, objectName } from './kube-params.ts'
import { kubePodRoutes } from './kube-pods.ts'
import { PATCH_TYPES, patchKind } from './kube-patch.ts'

// the methods the stand-in serves on each path; another method there is a 405, as on the real server
const ALLOWED: Array<[RegExp, string[]]> = [
  [/^\/api\/v1\/nodes$/, ['GET']],
  [/^\/api\/v1\/nodes\/[^/]+$/, ['GET', 'PATCH', 'DELETE']],
  [/^\/api\/v1\/(namespaces\/[^/]+\/)?pods$/, ['GET']],
  [/^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+$/, ['GET', 'DELETE']],
  [/^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/eviction$/, ['POST']],
  [/^\/api\/v1\/configmaps$/, ['GET']],
  [/^\/api\/v1\/namespaces\/[^/]+\/configmaps$/, ['GET', 'POST']],
  [/^\/api\/v1\/namespaces\/[^/]+\/configmaps\/[^/]+$/, ['GET', 'PUT', 'PATCH', 'DELETE']]
]

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
    reason: (error as { kubeReason?: string }).kubeReason ?? REASONS[code] ?? (code >= 500 ? 'InternalError' : 'BadRequest'),
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

// a wildcard, not `:name`: the router caps named parameters at 100 characters and node names may have 253
const NodeParams = Type.Object({ '*': Type.String({ maxLength: 253 }) })
const nodeName = objectName

export interface KubernetesRouteOptions { site: Site, pods: Pods, configMaps: ConfigMaps }

export const kubernetesRoutes: FastifyPluginAsyncTypebox<KubernetesRouteOptions> = async (app, { site, pods, configMaps }) => {
  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, request)
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
    await sendStatus(reply, apiError)
  })

  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0] ?? ''
    const allowed = ALLOWED.find(([pattern]) => pattern.test(path))?.[1]
    if (allowed !== undefined) throw new MethodNotAllowedError(request.method, allowed)
    throw notServed()
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

  app.get('/nodes', { config: { faultable: true }, schema: { querystring: ListQuerySchema } },
    async (request) => toKubeNodeList(await site.listNodes(request.query)))

  app.get('/nodes/*', { config: { faultable: true }, schema: { params: NodeParams } }, async (request) => {
    const name = nodeName(request.params)
    await site.refreshFor(name)
    return toKubeNode(site.inventory.getKube(name))
  })

  app.patch('/nodes/*', { config: { faultable: true }, schema: { params: NodeParams } }, async (request) => {
    const name = nodeName(request.params)
    const kind = patchKind(request.headers['content-type'])
    // application/json and json-patch are real Kubernetes patch types the stand-in does not take
    if (kind === undefined) throw new UnsupportedMediaTypeError(request.headers['content-type'], Object.keys(PATCH_TYPES))
    await site.refreshFor(name)
    return toKubeNode(site.inventory.patchNode(name, request.body, kind))
  })

  // decommission: Kubernetes forgets the Node (and its pods go), Drydock keeps the machine
  app.delete('/nodes/*', { config: { faultable: true }, schema: { params: NodeParams } }, async (request) => {
    const name = nodeName(request.params)
    await site.refreshFor(name)
    const node = site.inventory.removeFromKube(name)
    return deletedStatus('nodes', name, node.uid)
  })

  app.register(kubePodRoutes, { pods })
  app.register(kubeConfigMapRoutes, { configMaps })
}
