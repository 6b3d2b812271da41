// The document store (Deckhand's API v1.0): the only file that knows its paths and shapes.
import type { Dispatcher } from 'undici'
import {
  createHttpClient, DownstreamError, parseYamlDocuments, type CallContext, type Metrics, type ServiceTokenSource
} from '@slipway/common'
import { createRevisionListReader } from './revision-list.ts'

/**
 * One revision of the store's list. What a revision holds is its live documents, inherited from earlier revisions
 * too, and is read with `documents`; `wrote` (the list's `buckets`) names only the buckets the revision itself wrote,
 * which tells which revision wrote a collection's live documents (a write replaces all of them).
 */
export interface Revision { id: number, tags: string[], createdAt?: string, wrote?: string[] }
export type DiffStatus = 'created' | 'deleted' | 'modified' | 'unmodified'

/** A store answer of 4xx that the caller maps to its own error (e.g. 400 invalid documents, 409 conflicts). */
export class StoreRejection extends Error {
  readonly statusCode: number
  readonly body: string
  constructor (statusCode: number, body: string) {
    super(`store answered ${statusCode}`)
    this.name = 'StoreRejection'
    this.statusCode = statusCode
    this.body = body
  }
}

type StoreHttp = ReturnType<typeof createHttpClient>
const yamlHeaders = { accept: 'application/x-yaml' }

/** One revision as the list states it: its tags as a list or a map, and the buckets it wrote when it names them. */
function revisionOf (entry: unknown): Revision {
  type Entry = { id?: unknown, tags?: unknown, createdAt?: string, buckets?: unknown }
  const r = (typeof entry === 'object' && entry !== null ? entry : {}) as Entry
  return {
    id: Number(r.id),
    tags: Array.isArray(r.tags) ? r.tags.map(String) : Object.keys((r.tags ?? {}) as object),
    createdAt: r.createdAt,
    wrote: Array.isArray(r.buckets) ? r.buckets.map(String) : undefined
  }
}

/** The read of the revision list, bounded in bytes and in revisions. */
function revisionsReader (http: StoreHttp, limits: { maxRevisionListBytes: number, maxRevisions: number }) {
  const { maxRevisionListBytes, maxRevisions } = limits
  // the list is read on nearly every request: a store that answers too much of it (a broken one, or a hostile one)
  // is refused as soon as its answer passes the bound, before any of it is parsed
  const listTooLarge = {
    bytes: maxRevisionListBytes,
    reason: `The store answered GET /revisions with more than ${maxRevisionListBytes} bytes, the most the orchestrator reads (STORE_MAX_REVISION_LIST_BYTES)`
  }
  const revisionList = createRevisionListReader({
    parse: parseOneDocument,
    maxEntries: maxRevisions,
    tooMany: (count) => new DownstreamError('store',
      `The store answered GET /revisions with ${count} revisions, more than ${maxRevisions}, the most the orchestrator reads (STORE_MAX_REVISIONS)`),
    toItem: revisionOf
  })
  return async (ctx: CallContext): Promise<Revision[]> => {
    const response = await http.expectOk('GET', '/revisions', { ctx, headers: yamlHeaders, maxResponseBytes: listTooLarge })
    return (await revisionList.read(response.text)).sort((a, b) => a.id - b.id)
  }
}

/**
 * Rendered documents, or only those of `schemas` (exact schemas, any of them): the store renders the whole
 * revision either way, so a render failure is its answer too. A failure answers the store's status and body
 * instead of throwing.
 */
async function renderedOf (
  http: StoreHttp,
  revisionId: number,
  cleartext: boolean,
  ctx: CallContext,
  only: { schemas?: string[] }
): Promise<{ ok: true, text: string } | { ok: false, status: number, text: string }> {
  let response
  try {
    response = await http.request('GET', `/revisions/${revisionId}/rendered-documents`, {
      ctx, query: { 'cleartext-secrets': String(cleartext), schema: only.schemas }, headers: yamlHeaders
    })
  } catch (error) {
    // a commit's render check: any answer ≥ 400 is the render's verdict, a 5xx included; only a store that
    // could not be reached is a failure of the call
    if (error instanceof DownstreamError && error.upstreamStatus !== undefined) {
      return { ok: false, status: error.upstreamStatus, text: error.upstreamText ?? error.reason }
    }
    throw error
  }
  if (response.statusCode === 200) return { ok: true, text: response.text }
  if (response.statusCode >= 400) return { ok: false, status: response.statusCode, text: response.text }
  throw new DownstreamError('store', `rendered-documents answered ${response.statusCode}`)
}

export function createStoreClient (options: {
  baseUrl: string
  timeoutMs: number
  serviceAuth?: ServiceTokenSource
  dispatcher?: Dispatcher
  metrics?: Pick<Metrics, 'outbound'>
  /** Largest revision list read, in bytes (STORE_MAX_REVISION_LIST_BYTES); a larger answer is a 502. */
  maxRevisionListBytes?: number
  /** Most revisions a list may hold (STORE_MAX_REVISIONS); more is a 502. */
  maxRevisions?: number
}) {
  const { maxRevisionListBytes = DEFAULT_MAX_REVISION_LIST_BYTES, maxRevisions = DEFAULT_MAX_REVISIONS, ...httpOptions } = options
  const http = createHttpClient({ component: 'store', ...httpOptions })

  async function yamlOf<T> (path: string, ctx: CallContext, query?: Record<string, string>): Promise<T> {
    return await http.getYaml<T>(path, { ctx, query, headers: yamlHeaders })
  }

  return {
    baseUrl: options.baseUrl,
    /** Every revision, oldest first: sorted by id here, as Deckhand's list promises no order. */
    revisions: revisionsReader(http, { maxRevisionListBytes, maxRevisions }),
    async diff (from: number, to: number, ctx: CallContext): Promise<Record<string, DiffStatus>> {
      return (await yamlOf<Record<string, DiffStatus> | null>(`/revisions/${from}/diff/${to}`, ctx)) ?? {}
    },
    /** PUT a collection; answers the store's 4xx as StoreRejection. */
    async putCollection (collection: string, yamlText: string, ctx: CallContext): Promise<void> {
      const response = await http.request('PUT', `/buckets/${encodeURIComponent(collection)}/documents`, {
        ctx, body: yamlText, headers: { 'content-type': 'application/x-yaml', ...yamlHeaders }
      })
      if (response.statusCode >= 400) throw new StoreRejection(response.statusCode, response.text)
    },
    async tag (revisionId: number, tag: string, ctx: CallContext): Promise<void> {
      await http.expectOk('POST', `/revisions/${revisionId}/tags/${encodeURIComponent(tag)}`, { ctx })
    },
    /** Raw documents of a revision (YAML text), of one collection when given. */
    async documents (revisionId: number, options: { collection?: string, cleartext: boolean }, ctx: CallContext): Promise<string> {
      const query: Record<string, string> = { 'cleartext-secrets': String(options.cleartext) }
      if (options.collection !== undefined) query['status.bucket'] = options.collection
      return (await http.expectOk('GET', `/revisions/${revisionId}/documents`, { ctx, query, headers: yamlHeaders })).text
    },
    /** Rendered documents (renderedOf): the store's verdict as an answer, ok or not. */
    rendered: async (revisionId: number, cleartext: boolean, ctx: CallContext, only: { schemas?: string[] } = {}) =>
      await renderedOf(http, revisionId, cleartext, ctx, only),
    /**
     * The names of the ValidationPolicy documents a revision itself wrote (the revision's `validationPolicies`): the
     * store keeps such documents but leaves them out of every listing.
     */
    async validationPolicies (revisionId: number, ctx: CallContext): Promise<string[]> {
      const body = await yamlOf<{ validationPolicies?: Array<{ name?: unknown }> } | null>(`/revisions/${revisionId}`, ctx)
      return (body?.validationPolicies ?? []).map((p) => String(p.name ?? ''))
    },
    async validationsDetail (
      revisionId: number,
      ctx: CallContext
    ): Promise<Array<{ name?: string, status?: string, errors?: Array<Record<string, unknown>> }>> {
      type Detail = { name?: string, status?: string, errors?: Array<Record<string, unknown>> }
      const body = await yamlOf<{ results?: Detail[] }>(`/revisions/${revisionId}/validations/detail`, ctx)
      return body.results ?? []
    },
    parseYaml: <T>(text: string, what: string): T => http.parseYaml<T>({ statusCode: 200, headers: {}, text }, what)
  }
}

export type StoreClient = ReturnType<typeof createStoreClient>

export const DEFAULT_MAX_REVISION_LIST_BYTES = 8 * 1024 * 1024
export const DEFAULT_MAX_REVISIONS = 20_000

/**
 * The revision list's YAML (the whole answer, or a piece of it): one document. A second document after the first is
 * refused, as Deckhand's own clients (PyYAML's safe_load) refuse it, rather than read as if it were not there.
 */
function parseOneDocument (text: string): unknown {
  let documents: unknown[]
  try {
    documents = parseYamlDocuments(text)
  } catch (error) {
    const why = String((error as Error).message).split('\n')[0]
    throw new DownstreamError('store', `The store answered GET /revisions with unreadable YAML (${why})`, { cause: error })
  }
  if (documents.length > 1) {
    throw new DownstreamError('store', `The store answered GET /revisions with ${documents.length} YAML documents; a revision list is one`)
  }
  return documents[0] ?? null
}
