// What the buffer holds, as the API shows it, without the revision numbers (writing a collection back makes new
// revisions of the same content): each collection's status against the committed revision, and the documents each
// collection holds in the buffer.
import { expect } from 'vitest'
import { parseYamlDocuments } from '@slipway/common'
import { AUTH } from '@slipway/common/testing'

type Inject = (options: { method: 'GET', url: string, headers: Record<string, string> }) => Promise<{ statusCode: number, body: string }>

export interface BufferState {
  statuses: Array<{ collection: string, base: string, status: string }>
  documents: Record<string, Array<{ schema: unknown, name: unknown, data: unknown }>>
}

export async function bufferState (inject: Inject): Promise<BufferState> {
  const res = await inject({ method: 'GET', url: '/api/v1.0/configdocs', headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
  const list = JSON.parse(res.body) as Array<{ collection_name: string, base_status: string, new_status: string }>
  const statuses = list.map((c) => ({ collection: c.collection_name, base: c.base_status, status: c.new_status }))
  const documents: BufferState['documents'] = {}
  for (const { collection, status } of statuses) {
    if (status === 'unmodified') continue
    const read = await inject({ method: 'GET', url: `/api/v1.0/configdocs/${collection}?version=buffer`, headers: AUTH })
    expect(read.statusCode, read.body).toBe(200)
    documents[collection] = (parseYamlDocuments(read.body) as Array<{ schema?: unknown, metadata?: { name?: unknown }, data?: unknown }>)
      .map((d) => ({ schema: d.schema, name: d.metadata?.name, data: d.data }))
  }
  return { statuses, documents }
}

/** A collection of one cleartext document of its own. */
export function extraCollection (name: string, value: string): string {
  return `---
schema: example/Extra/v1
metadata:
  schema: metadata/Document/v1
  name: ${name}
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: cleartext
data: {value: ${JSON.stringify(value)}}
`
}
