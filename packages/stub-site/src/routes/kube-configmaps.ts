// Kubernetes core/v1 ConfigMaps: list (all namespaces or one), create, read, replace, patch (merge and strategic
// merge) and delete, with Kubernetes' Status error objects (rendered by kubernetes.ts' error handler).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { UnsupportedMediaTypeError } from '@slipway/common'
import { Type } from 'typebox'
import type { ConfigMaps } from '../domain/configmaps.ts'
import { deletedStatus, toKubeList } from '../kube-views.ts'
import { ListQuerySchema, NamespacedParams, objectName } from './kube-params.ts'
import { PATCH_TYPES, patchKind } from './kube-patch.ts'

const faultable = { faultable: true }
const NamespaceParams = Type.Object({ namespace: Type.String({ maxLength: 63 }) })

export const kubeConfigMapRoutes: FastifyPluginAsyncTypebox<{ configMaps: ConfigMaps }> = async (app, { configMaps }) => {
  app.get('/configmaps', { config: faultable, schema: { querystring: ListQuerySchema } },
    async (request) => toKubeList('ConfigMapList', configMaps.page(request.query)))

  app.get('/namespaces/:namespace/configmaps', { config: faultable, schema: { params: NamespaceParams, querystring: ListQuerySchema } },
    async (request) => toKubeList('ConfigMapList', configMaps.page(request.query, request.params.namespace)))

  app.post('/namespaces/:namespace/configmaps', { config: faultable, schema: { params: NamespaceParams } }, async (request, reply) => {
    return await reply.code(201).send(configMaps.create(request.params.namespace, request.body))
  })

  app.get('/namespaces/:namespace/configmaps/*', { config: faultable, schema: { params: NamespacedParams } },
    async (request) => configMaps.get(request.params.namespace, objectName(request.params)))

  app.put('/namespaces/:namespace/configmaps/*', { config: faultable, schema: { params: NamespacedParams } },
    async (request) => configMaps.replace(request.params.namespace, objectName(request.params), request.body))

  app.patch('/namespaces/:namespace/configmaps/*', { config: faultable, schema: { params: NamespacedParams } }, async (request) => {
    const name = objectName(request.params)
    if (patchKind(request.headers['content-type']) === undefined) {
      throw new UnsupportedMediaTypeError(request.headers['content-type'], Object.keys(PATCH_TYPES))
    }
    // for a ConfigMap's maps of strings, a strategic merge patch does what a merge patch does
    return configMaps.patch(request.params.namespace, name, request.body)
  })

  app.delete('/namespaces/:namespace/configmaps/*', { config: faultable, schema: { params: NamespacedParams } }, async (request) => {
    const map = configMaps.delete(request.params.namespace, objectName(request.params))
    return deletedStatus('configmaps', map.metadata.name, map.metadata.uid)
  })
}
