// PUT /v1.0/node-labels/{node_name}: HTTP only — schema, policy, one use-case call; the full desired label set is
// applied as one patch through the Kubernetes API.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBodySchema, readJsonBodies } from '@slipway/common'
import type { NodeLabels } from '../domain/node-label-updates.ts'
import { LabelRequestSchema, LabelsUpdatedSchema, NodeParamsSchema } from '../schemas/node-labels.ts'

export const nodeLabelRoutes: FastifyPluginAsyncTypebox<{ nodeLabels: NodeLabels }> = async (app, options) => {
  // the labels come as a JSON body; a body of another content type, or none, is the missing labels dict
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
  }, async (request) => await options.nodeLabels.update(request.params.node_name, request.body, request.log))
}

// the answer's one definition is the use case's; named here too for the tests that read it beside the route
export { LABELS_UPDATED } from '../domain/node-label-updates.ts'
