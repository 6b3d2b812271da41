// Deckhand, as the steps use it: its health, a revision's rendered documents (filtered as Deckhand filters them),
// its validations, and the site-action tags. Deckhand answers YAML.
import { DownstreamError, parseYamlDocuments, type CallContext, type HttpClient } from '@slipway/common'

const YAML = { accept: 'application/x-yaml' }

export interface Validation { name: string, status: string }

export function deckhandClient (http: HttpClient) {
  return {
    async health (ctx: CallContext): Promise<number> {
      return (await http.expectOk('GET', '/health', { ctx })).statusCode
    },

    /** The rendered documents of a revision; `filters` as Deckhand's query (`schema`, `metadata.name`). */
    async renderedDocuments (revision: number, ctx: CallContext, filters: Record<string, string> = {}): Promise<unknown[]> {
      const response = await http.expectOk('GET', `/revisions/${revision}/rendered-documents`, { ctx, headers: YAML, query: filters })
      try {
        return parseYamlDocuments(response.text).filter((d) => d !== null)
      } catch (error) {
        const reason = `Deckhand answered the rendered documents of revision ${revision} with unreadable YAML: ${(error as Error).message}`
        throw new DownstreamError('deckhand', reason)
      }
    },

    async validations (revision: number, ctx: CallContext): Promise<Validation[]> {
      const body = await http.getYaml<{ results?: Array<{ name?: unknown, status?: unknown }> } | null>(
        `/revisions/${revision}/validations`, { ctx, headers: YAML })
      return (body?.results ?? []).map((r) => ({ name: String(r.name ?? ''), status: String(r.status ?? '') }))
    },

    /** Every entry of every validation of the revision, with its errors (Deckhand's validations/detail). */
    async validationDetail (revision: number, ctx: CallContext): Promise<Array<{ name: string, status: string, errors: string[] }>> {
      type Detail = { name?: unknown, status?: unknown, errors?: Array<{ message?: unknown }> }
      const body = await http.getYaml<{ results?: Detail[] } | null>(`/revisions/${revision}/validations/detail`, { ctx, headers: YAML })
      return (body?.results ?? []).map((r) => ({
        name: String(r.name ?? ''),
        status: String(r.status ?? ''),
        errors: (r.errors ?? []).map((e) => String(e?.message ?? e))
      }))
    },

    async tag (revision: number, tag: string, ctx: CallContext): Promise<void> {
      await http.expectOk('POST', `/revisions/${revision}/tags/${encodeURIComponent(tag)}`, { ctx })
    }
  }
}
export type DeckhandClient = ReturnType<typeof deckhandClient>
