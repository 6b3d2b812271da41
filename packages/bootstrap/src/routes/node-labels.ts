// PUT /v1.0/node-labels/{node_name} (seed 001 §4.4, spec/bootstrap.md §8): the full desired label set,
// applied as one patch through the Kubernetes API.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { BadRequestError, NotFoundError } from '@slipway/common'
import { labelKeyProblem, labelPatch, labelValueProblem, type LabelRequest } from '../domain/node-labels.ts'
import { NodeNotFoundError, type KubernetesClient } from '../clients/kubernetes.ts'

// a node name is a DNS subdomain (Kubernetes object names)
const NODE_NAME_MAX_LENGTH = 253

function invalid (message: string, reason: string): BadRequestError {
  return new BadRequestError(message, reason, { errorType: 'InvalidFormatError' })
}

/** The body as a label request, or a 400 saying what is wrong with it (spec §8.1); `path` is the request's. */
export function parseLabelRequest (body: unknown, contentType: string | undefined, path: string): LabelRequest {
  if (body === undefined || body === null || body === '' || contentType === undefined || !contentType.toLowerCase().startsWith('application/json')) {
    throw invalid('Invalid Input Error', 'Missing input: labels dict')
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(String(body))
  } catch (error) {
    throw invalid('JSON could not be decoded', `${path}: Invalid JSON in body: ${(error as Error).message}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('Invalid Input Error', 'The labels must be a JSON object of label name to value')
  const labels: LabelRequest = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== null && typeof value !== 'string') throw invalid('Invalid Input Error', `The value of label '${key}' must be a string or null`)
    const problem = labelKeyProblem(key) ?? (value === null ? undefined : labelValueProblem(value))
    if (problem !== undefined) throw invalid('Invalid Input Error', problem)
    labels[key] = value
  }
  return labels
}

export const LABELS_UPDATED = {
  kind: 'Status',
  apiVersion: 'v1.0',
  metadata: {},
  status: 'Success',
  message: '',
  reason: 'Update node labels',
  details: { errorCount: 0, messageList: [] },
  code: '200 OK'
}

export async function nodeLabelRoutes (app: FastifyInstance, options: { kubernetes: KubernetesClient }): Promise<void> {
  app.put('/node-labels/:node_name', {
    config: { policy: 'kubernetes_provisioner:update_node_labels' },
    schema: { params: Type.Object({ node_name: Type.String() }) }
  }, async (request) => {
    const { node_name: nodeName } = request.params as { node_name: string }
    // spec §8.1: an empty node name is a bad URL, not bad input
    if (nodeName === '') throw new NotFoundError('Bad URL', 'The node name is missing from the path', { errorType: 'HTTPRouteNotFound' })
    const requested = parseLabelRequest(request.body, request.headers['content-type'], request.url.split('?')[0] ?? '')
    // no node has a name longer than Kubernetes allows: upstream asks anyway and relays the 404 (spec §8.4)
    if (nodeName.length > NODE_NAME_MAX_LENGTH) throw new NodeNotFoundError(nodeName)
    const node = await options.kubernetes.getNode(nodeName)
    const patch = labelPatch(node.metadata?.labels, requested)
    if (Object.keys(patch).length > 0) await options.kubernetes.patchLabels(nodeName, patch)
    request.log.info({ node: nodeName, changed: Object.keys(patch).length }, 'node labels updated')
    return LABELS_UPDATED
  })
}
