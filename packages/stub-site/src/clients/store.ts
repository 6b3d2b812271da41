// The document store (Deckhand's API v1.0): the newest committed revision and its documents, which the site
// follows (its machines are the committed design's BaremetalNodes).
import { DownstreamError, createHttpClient, parseYamlDocuments, staticServiceToken } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { DesignSource } from '../domain/site.ts'

// the committed version is the newest revision tagged committed or rollback_commit (as Shipyard reads the store)
const COMMIT_TAGS = new Set(['committed', 'rollback_commit'])

interface RevisionList { results?: Array<{ id?: unknown, tags?: unknown }> }

export function createStoreClient (options: {
  baseUrl: string
  timeoutMs: number
  serviceToken?: string | undefined
  dispatcher?: Dispatcher | undefined
}): DesignSource {
  const http = createHttpClient({
    component: 'store',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    dispatcher: options.dispatcher,
    serviceAuth: staticServiceToken(options.serviceToken),
    maxResponseBytes: 32 * 1024 * 1024
  })

  async function committedRevision (): Promise<number | undefined> {
    // the whole list rather than ?tag=: upstream Deckhand matches a single tag only when it was the first one set
    const list = await http.getYaml<RevisionList | null>('/revisions')
    let newest: number | undefined
    for (const revision of list?.results ?? []) {
      const tags = Array.isArray(revision.tags) ? revision.tags : Object.keys(revision.tags ?? {})
      if (typeof revision.id === 'number' && tags.some((t) => COMMIT_TAGS.has(String(t))) &&
        (newest === undefined || revision.id > newest)) {
        newest = revision.id
      }
    }
    return newest
  }

  async function committedDocuments (schema: string): Promise<unknown[] | undefined> {
    const revision = await committedRevision()
    if (revision === undefined) return undefined
    const response = await http.expectOk('GET', `/revisions/${revision}/documents`, { query: { schema } })
    // Deckhand answers a YAML 1.1 stream, one document per entry; an empty body is an empty list
    try {
      return parseYamlDocuments(response.text)
    } catch (error) {
      throw new DownstreamError('store', `The store answered unreadable YAML: ${(error as Error).message}`)
    }
  }

  return { committedDocuments }
}
