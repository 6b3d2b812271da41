// GET /v1.0/join-scripts (seed 001 §4.2, spec/bootstrap.md §6): validate, find the join IPs, fetch the design,
// answer the script.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ApiError, BadRequestError, DownstreamError, ErrorBodySchema, textAnswer } from '@slipway/common'
import { ParamError, joinParamsOf } from '../domain/join-params.ts'
import { JoinQuerySchema, JoinScriptTextSchema } from '../schemas/join-scripts.ts'
import { DesignError } from '../domain/documents.ts'
import { buildJoinScript, EncryptionError } from '../domain/join-script.ts'
import { remoteFileUrls } from '../domain/host-files.ts'
import { DesignYamlError, type DesignFetcher } from '../clients/design.ts'
import type { KubernetesClient } from '../clients/kubernetes.ts'
import type { FileSources } from '../clients/file-sources.ts'
import type { PayloadEncryptor } from '../clients/gpg.ts'

const PARAM_ERROR_TYPE = { missing: 'HTTPMissingParam', invalid: 'HTTPInvalidParam', format: 'InvalidFormatError' } as const
const NODE_FORMAT_PARAMS = new Set(['hostname', 'ip', 'external_ip'])

/** Our own failures, named as the spec's status table names them (§6.6). */
export function joinScriptError (error: unknown): unknown {
  if (error instanceof ParamError) {
    const errorType = error.kind === 'format' && NODE_FORMAT_PARAMS.has(error.param) ? 'ValidationException' : PARAM_ERROR_TYPE[error.kind]
    const title = error.kind === 'missing' ? 'Missing parameter' : 'Invalid parameter'
    return new BadRequestError(error.message, title, { errorType, errorList: [{ message: error.message, parameter: error.param }] })
  }
  // spec §6.6: a design that is not YAML is a failed fetch here (502 naming the store); validatedesign says 400
  if (error instanceof DesignYamlError) return new DownstreamError('store', error.message, { statusCode: 502 })
  if (error instanceof DesignError) return new BadRequestError(error.message, error.message, { errorType: error.errorType })
  if (error instanceof EncryptionError) return new ApiError(500, 'Payload encryption error', error.message, { errorType: 'EncryptionException' })
  // a design that cannot be fetched is the store's failure: 502 naming it (spec §6.6)
  if (error instanceof DownstreamError && error.component === 'store') return new DownstreamError('store', error.reason, { statusCode: 502, upstreamStatus: error.upstreamStatus })
  return error
}

type JoinScriptDeps = {
  fetchDesign: DesignFetcher
  fetchFiles: FileSources
  kubernetes: KubernetesClient
  encryptPayload?: PayloadEncryptor | undefined
}

export const joinScriptRoutes: FastifyPluginAsyncTypebox<JoinScriptDeps> = async (app, options) => {
  app.get('/join-scripts', {
    config: { policy: 'kubernetes_provisioner:get_join_scripts' },
    schema: {
      querystring: JoinQuerySchema,
      response: { 200: textAnswer('text/x-shellscript', JoinScriptTextSchema), 400: ErrorBodySchema, 500: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema }
    }
  }, async (request, reply) => {
    try {
      const params = joinParamsOf(request.query)
      // spec §6.2: the join IPs (step 2) before the design (step 3), so a Kubernetes failure wins over the store's
      const joinIps = await options.kubernetes.apiServerIps()
      const documents = await options.fetchDesign(params.designRef, request.ctx, request.ctx.token)
      const remote = await options.fetchFiles(remoteFileUrls(documents), request.ctx)
      const script = await buildJoinScript(documents, params, joinIps, { remote, encrypt: options.encryptPayload })
      request.log.info({ hostname: params.hostname, bytes: script.length }, 'join script generated')
      return await reply.type('text/x-shellscript').send(script)
    } catch (error) {
      throw joinScriptError(error)
    }
  })
}
