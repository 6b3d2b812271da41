// PUT /v1.0/node-labels/{node_name} (seed 001 §4.4, spec/bootstrap.md §8): the full desired label set,
// applied as one patch through the Kubernetes API.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BadRequestError, ErrorBodySchema, NotFoundError, readJsonBodies } from '@slipway/common'
import { labelKeyProblem, labelPatch, labelValueProblem, type LabelRequest } from '../domain/node-labels.ts'
import { NodeNotFoundError, type KubernetesClient } from '../clients/kubernetes.ts'
import { LabelRequestSchema, LabelsUpdatedSchema, NodeParamsSchema, type LabelRequestBody, type LabelsUpdated } from '../schemas/node-labels.ts'

// a node name is a DNS subdomain (Kubernetes object names)
const NODE_NAME_MAX_LENGTH = 253

/** Each label of a body the schema has read must be a valid Kubernetes label, or 400 naming the problem (spec §8.1). */
export function labelRequestOf (body: LabelRequestBody): LabelRequest {
  for (const [key, value] of Object.entries(body)) {
    const problem = labelKeyProblem(key) ?? (value === null ? undefined : labelValueProblem(value))
    if (problem !== undefined) throw new BadRequestError('Invalid Input Error', problem, { errorType: 'InvalidFormatError' })
  }
  return body
}

export const LABELS_UPDATED: LabelsUpdated = {
  kind: 'Status',
  apiVersion: 'v1.0',
  metadata: {},
  status: 'Success',
  message: '',
  reason: 'Update node labels',
  details: { errorCount: 0, messageList: [] },
  code: '200 OK'
}

export const nodeLabelRoutes: FastifyPluginAsyncTypebox<{ kubernetes: KubernetesClient }> = async (app, options) => {
  // spec §8.1: a JSON body; one of another content type, or none, is the missing labels dict
  readJsonBodies(app)
  app.put('/node-labels/:node_name', {
    config: { policy: 'kubernetes_provisioner:update_node_labels' },
    schema: {
      params: NodeParamsSchema,
      body: LabelRequestSchema,
      response: {
        200: LabelsUpdatedSchema,
        400: ErrorBodySchema,
        404: ErrorBodySchema,
        500: ErrorBodySchema,
        502: ErrorBodySchema,
        503: ErrorBodySchema
      }
    }
  }, async (request) => {
    const { node_name: nodeName } = request.params
    // spec §8.1: an empty node name is a bad URL, not bad input
    if (nodeName === '') throw new NotFoundError('Bad URL', 'The node name is missing from the path', { errorType: 'HTTPRouteNotFound' })
    const requested = labelRequestOf(request.body)
    // no node has a name longer than Kubernetes allows: upstream asks anyway and relays the 404 (spec §8.4)
    if (nodeName.length > NODE_NAME_MAX_LENGTH) throw new NodeNotFoundError(nodeName)
    const node = await options.kubernetes.getNode(nodeName)
    const patch = labelPatch(node.metadata?.labels, requested)
    if (Object.keys(patch).length > 0) await options.kubernetes.patchLabels(nodeName, patch)
    request.log.info({ node: nodeName, changed: Object.keys(patch).length }, 'node labels updated')
    return LABELS_UPDATED
  })
}
