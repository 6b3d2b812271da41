// Reads the design an Armada href names, as Armada's ReferenceResolver does: `deckhand+http(s)://…` is the store's
// rendered documents over plain HTTP, any other http(s) URL a YAML (or JSON) document stream.
import { DownstreamError, createHttpClient, parseYamlDocuments, staticServiceToken, type CallContext } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { DesignReader } from '../domain/armada/armada.ts'
import { DesignUnreachableError } from '../domain/armada/errors.ts'

export function createArmadaDesignReader (options: {
  timeoutMs: number
  /** The store's base URL: only its host is sent SERVICE_TOKEN, so the token goes nowhere a caller picks. */
  storeUrl: string | null
  serviceToken?: string | undefined
  maxBytes?: number
  dispatcher?: Dispatcher | undefined
}): DesignReader {
  const storeHost = options.storeUrl === null || !URL.canParse(options.storeUrl) ? undefined : new URL(options.storeUrl).host

  async function documents (href: string, ctx: CallContext): Promise<unknown[]> {
    const plain = href.startsWith('deckhand+') ? href.slice('deckhand+'.length) : href
    if (!URL.canParse(plain)) throw new DesignUnreachableError(href, 'not a URL')
    const url = new URL(plain)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new DesignUnreachableError(href, `scheme ${url.protocol} is not supported`)
    }
    const http = createHttpClient({
      component: 'store',
      baseUrl: url.origin,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxBytes ?? 32 * 1024 * 1024,
      dispatcher: options.dispatcher,
      serviceAuth: url.host === storeHost ? staticServiceToken(options.serviceToken) : undefined
    })
    let text: string
    try {
      const response = await http.request('GET', url.pathname + url.search, { ctx, headers: { accept: 'application/x-yaml' } })
      if (response.statusCode !== 200) throw new DesignUnreachableError(href, `the design host answered ${response.statusCode}`)
      text = response.text
    } catch (error) {
      if (error instanceof DownstreamError) throw new DesignUnreachableError(href, error.reason)
      throw error
    }
    try {
      // a JSON list of documents is a YAML document too
      return parseYamlDocuments(text).filter((d) => d !== null)
    } catch (error) {
      throw new DesignUnreachableError(href, `the design is not YAML: ${(error as Error).message}`)
    }
  }

  return { documents }
}
