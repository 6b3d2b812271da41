// The sources of note details: a GET of the note's URL with a timeout and a size cap,
// carrying the service's own token only for a note that asks for it; the caller's token is never forwarded.
import { createHttpClient, DownstreamError, type CallContext, type ServiceTokenSource } from '@slipway/common'

/**
 * The text at a note's URL; throws when the URL is not one, cannot be reached, or answers anything but 2xx: a
 * redirect is not followed (its empty body is no note's details) and is refused like any other non-2xx answer.
 */
export type NoteFetcher = (link: string, withServiceToken: boolean, ctx: CallContext) => Promise<string>

export function createNoteFetcher (options: {
  timeoutMs: number
  maxBytes: number
  serviceAuth?: ServiceTokenSource | undefined
}): NoteFetcher {
  return async (link, withServiceToken, ctx) => {
    const url = new URL(link)
    const http = createHttpClient({
      component: 'note source',
      baseUrl: url.origin,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxBytes,
      serviceAuth: withServiceToken ? options.serviceAuth : undefined
    })
    const response = await http.request('GET', url.pathname + url.search, { ctx, headers: { accept: '*/*' } })
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new DownstreamError('note source', `The note's URL answered ${response.statusCode}`, { upstreamStatus: response.statusCode })
    }
    return response.text
  }
}
