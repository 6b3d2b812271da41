// Kubernetes core/v1 pods: lists (all namespaces or one; selectors, pages), one pod, its delete and its eviction
// (policy/v1), with Kubernetes' Status error objects (rendered by kubernetes.ts' error handler).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Pods } from '../domain/pods.ts'
import { DeleteOptionsSchema, EvictionSchema } from '../schemas/kube.ts'
import type { KubeSuccess } from '../schemas/nodes.ts'
import { toKubeList } from '../kube-views.ts'
import { ListQuerySchema, NamespacedParams, notServed, objectName } from './kube-params.ts'

const faultable = { faultable: true }

export const kubePodRoutes: FastifyPluginAsyncTypebox<{ pods: Pods }> = async (app, { pods }) => {
  app.get('/pods', { config: faultable, schema: { querystring: ListQuerySchema } },
    async (request) => toKubeList('PodList', pods.page(request.query)))

  app.get('/namespaces/:namespace/pods', {
    config: faultable,
    schema: { params: Type.Object({ namespace: Type.String({ maxLength: 63 }) }), querystring: ListQuerySchema }
  }, async (request) => toKubeList('PodList', pods.page(request.query, request.params.namespace)))

  app.get('/namespaces/:namespace/pods/*', { config: faultable, schema: { params: NamespacedParams } },
    async (request) => pods.get(request.params.namespace, objectName(request.params)))

  app.delete('/namespaces/:namespace/pods/*', {
    config: faultable,
    schema: {
      params: NamespacedParams,
      querystring: Type.Object({ gracePeriodSeconds: Type.Optional(Type.Integer()) }),
      body: Type.Optional(Type.Union([DeleteOptionsSchema, Type.Null()]))
    }
  }, async (request) => {
    const options = { ...(request.body ?? {}) }
    // the query's grace period counts when the body gives none
    if (options.gracePeriodSeconds === undefined && request.query.gracePeriodSeconds !== undefined) {
      options.gracePeriodSeconds = request.query.gracePeriodSeconds
    }
    return pods.delete(request.params.namespace, objectName(request.params), options)
  })

  // POST …/pods/{name}/eviction: the only POST under a pod
  app.post('/namespaces/:namespace/pods/*', {
    config: faultable,
    schema: { params: NamespacedParams, body: EvictionSchema }
  }, async (request, reply) => {
    const match = /^([^/]+)\/eviction$/.exec(request.params['*'])
    if (match?.[1] === undefined) throw notServed()
    pods.evict(request.params.namespace, match[1], request.body)
    const answer: KubeSuccess = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }
    return await reply.code(201).send(answer)
  })
}
