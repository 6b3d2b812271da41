// The document store (Deckhand API): health, revision validations, rendered documents and revision tags.
import { createHttpClient, DownstreamError, parseYamlDocuments, type CallContext, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { SideEffects } from '../domain/operators.ts'

export function createStoreClient (options: { baseUrl: string, timeoutMs: number, serviceAuth?: ServiceTokenSource, dispatcher?: Dispatcher }): NonNullable<SideEffects['store']> {
  const http = createHttpClient({ component: 'store', ...options })
  return {
    async health (ctx: CallContext) { await http.expectOk('GET', '/health', { ctx }) },
    async validations (revision: number, ctx: CallContext) {
      // Deckhand answers YAML (spec/store.md §2)
      const body = await http.getYaml<{ results?: Array<{ name?: string, status?: string }> } | null>(`/revisions/${revision}/validations`, { ctx, headers: { accept: 'application/x-yaml' } }) ?? {}
      return (body.results ?? []).map((r) => ({ name: String(r.name ?? ''), status: String(r.status ?? '') }))
    },
    async renderedDocuments (revision: number, ctx: CallContext) {
      const response = await http.expectOk('GET', `/revisions/${revision}/rendered-documents`, { ctx, headers: { accept: 'application/x-yaml' } })
      try {
        return parseYamlDocuments(response.text)
      } catch (error) {
        throw new DownstreamError('store', `The store answered unreadable YAML: ${(error as Error).message}`)
      }
    },
    async tagRevision (revision: number, tag: string, ctx: CallContext) {
      await http.expectOk('POST', `/revisions/${revision}/tags/${encodeURIComponent(tag)}`, { ctx })
    }
  }
}
