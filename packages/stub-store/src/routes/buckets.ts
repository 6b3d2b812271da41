// PUT /buckets/{bucket}/documents: the complete new content of one bucket.
import type { FastifyInstance } from 'fastify'
import type { Store } from '../domain/store.ts'
import { RULES } from '../domain/store.ts'
import { bodyDocuments, sendYamlList } from './http.ts'

type BucketParams = { Params: { bucket: string } }

export async function bucketRoutes (app: FastifyInstance, opts: { store: Store }): Promise<void> {
  const { store } = opts
  app.put<BucketParams>('/buckets/:bucket/documents', { config: { policy: RULES.createCleartext } }, async (request, reply) => {
    const result = store.putBucket(request.params.bucket, bodyDocuments(request), request.storeAccess)
    if (result.revision !== undefined) request.log.info({ bucket: request.params.bucket, revision: result.revision }, 'bucket written')
    return sendYamlList(reply, 200, result.documents)
  })
}
