// The join-scripts use case, as Promenade answers GET /join-scripts: the parameters checked, the join IPs found, the
// design fetched and its HostSystem files with it, the script made. Every failure is one of @slipway/common's
// errors, worded as Promenade's status table words it.
import { pipeline, Transform, type Readable } from 'node:stream'
import { DownstreamError } from '@slipway/common'
import type { FileSources } from '../clients/file-sources.ts'
import type { PayloadEncryptor } from '../clients/gpg.ts'
import type { KubernetesClient } from '../clients/kubernetes.ts'
import { DesignYamlError } from '../errors.ts'
import type { JoinQuery } from '../schemas/join-scripts.ts'
import type { CallerContext, Log } from '../types.ts'
import type { DesignSource } from './design-source.ts'
import { remoteFileUrls } from './host-files.ts'
import { joinParamsOf } from './join-params.ts'
import { buildJoinScript } from './join-script.ts'

export interface JoinScriptsDeps {
  kubernetes: Pick<KubernetesClient, 'apiServerIps'>
  design: DesignSource
  fetchFiles: FileSources
  /** gpg for designs that ask for encrypted join scripts; absent: they get 500 EncryptionException. */
  encryptPayload?: PayloadEncryptor | undefined
}

/** The store's failures as this route answers them: always 502 naming the store, a design that is not YAML too. */
function storeFailure (error: unknown): unknown {
  if (error instanceof DesignYamlError) return new DownstreamError('store', error.message, { statusCode: 502 })
  if (error instanceof DownstreamError && error.component === 'store') {
    return new DownstreamError('store', error.reason, { statusCode: 502, upstreamStatus: error.upstreamStatus })
  }
  return error
}

export function createJoinScripts (deps: JoinScriptsDeps) {
  return {
    /**
     * The join script for the node the query names (text/x-shellscript), as a stream: everything that can be refused
     * is refused before it is returned; a payload file that fails while the stream is read fails the stream (the
     * answer is then broken off, never ended as if whole). The files are let go when the stream closes.
     */
    async script (query: JoinQuery, ctx: CallerContext, log: Log): Promise<Readable> {
      const params = joinParamsOf(query)
      // the join IPs before the design, so that a Kubernetes failure wins over the store's
      const joinIps = await deps.kubernetes.apiServerIps()
      let release = async (): Promise<void> => {}
      try {
        const documents = await deps.design.read(params.designRef, ctx, ctx.token)
        const fetched = await deps.fetchFiles(remoteFileUrls(documents), ctx)
        release = fetched.release
        const script = await buildJoinScript(documents, params, joinIps, { remote: fetched.files, encrypt: deps.encryptPayload })
        // counted as it passes: the answer's size is known only when it has been written
        let bytes = 0
        const counted = new Transform({ transform (chunk: Buffer, _encoding, done) { bytes += chunk.length; done(null, chunk) } })
        pipeline(script, counted, (error) => {
          // let go before the answer's end is written: the files are gone by the time the client has it
          release().catch(() => {})
          if (error === undefined || error === null) {
            log.info({ hostname: params.hostname, bytes }, 'join script generated')
          } else {
            log.error({ hostname: params.hostname, bytes, err: error }, 'join script broken off')
            counted.destroy(error)
          }
        })
        return counted
      } catch (error) {
        await release()
        throw storeFailure(error)
      }
    }
  }
}

export type JoinScripts = ReturnType<typeof createJoinScripts>
