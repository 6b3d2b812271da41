// The node-labels use case, as Promenade answers PUT /node-labels/{node_name}: the request is the full desired label
// set of one node, checked label by label, compared with the node's labels and applied as one patch (none when
// nothing changes).
import { BadRequestError, NotFoundError } from '@slipway/common'
import { NodeNotFoundError, type KubernetesClient } from '../clients/kubernetes.ts'
import type { LabelRequestBody, LabelsUpdated } from '../schemas/node-labels.ts'
import type { Log } from '../types.ts'
import { labelKeyProblem, labelPatch, labelValueProblem, type LabelRequest } from './node-labels.ts'

// a node name is a DNS subdomain (Kubernetes object names)
const NODE_NAME_MAX_LENGTH = 253

/** The answer to every update: the same whether or not a patch was needed. */
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

/** Each label of a body the schema has read must be a valid Kubernetes label, or a 400 naming the problem. */
export function labelRequestOf (body: LabelRequestBody): LabelRequest {
  for (const [key, value] of Object.entries(body)) {
    const problem = labelKeyProblem(key) ?? (value === null ? undefined : labelValueProblem(value))
    if (problem !== undefined) throw new BadRequestError('Invalid Input Error', problem, { errorType: 'InvalidFormatError' })
  }
  return body
}

export function createNodeLabels (deps: { kubernetes: Pick<KubernetesClient, 'getNode' | 'patchLabels'> }) {
  return {
    /** Gives node `nodeName` exactly the labels of `body` (labels naming kubernetes.io are kept unless given). */
    async update (nodeName: string, body: LabelRequestBody, log: Log): Promise<LabelsUpdated> {
      // an empty node name is a bad URL, not bad input
      if (nodeName === '') throw new NotFoundError('Bad URL', 'The node name is missing from the path', { errorType: 'HTTPRouteNotFound' })
      const requested = labelRequestOf(body)
      // no node has a name longer than Kubernetes allows: upstream asks anyway and relays the 404
      if (nodeName.length > NODE_NAME_MAX_LENGTH) throw new NodeNotFoundError(nodeName)
      const node = await deps.kubernetes.getNode(nodeName)
      const patch = labelPatch(node.metadata?.labels, requested)
      if (Object.keys(patch).length > 0) await deps.kubernetes.patchLabels(nodeName, patch)
      log.info({ node: nodeName, changed: Object.keys(patch).length }, 'node labels updated')
      return LABELS_UPDATED
    }
  }
}

export type NodeLabels = ReturnType<typeof createNodeLabels>
