// Reads the design a Drydock task or validation names, as Drydock does: `deckhand+http://…` is fetched over HTTP
// (the `deckhand+` prefix stripped), and the answer (YAML, or JSON which YAML reads too) is a stream of documents.
import { ApiError, createHttpClient, parseYamlDocuments, staticServiceToken, type CallContext } from '@slipway/common'
import type { Dispatcher } from 'undici'
import { DesignUnavailableError } from '../errors.ts'

/** The design documents `designRef` names; throws DesignUnavailableError when they cannot be read. */
export type DesignFetcher = (designRef: string, ctx: CallContext) => Promise<unknown[]>

export function createDesignClient (options: {
  timeoutMs: number
  serviceToken?: string | undefined
  dispatcher?: Dispatcher | undefined
}): DesignFetcher {
  const serviceAuth = staticServiceToken(options.serviceToken)
  return async (designRef, ctx) => {
    const href = designRef.startsWith('deckhand+') ? designRef.slice('deckhand+'.length) : designRef
    if (!URL.canParse(href)) throw new DesignUnavailableError(`design_ref ${JSON.stringify(designRef)} is not a URL`)
    const url = new URL(href)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new DesignUnavailableError(`design_ref scheme ${url.protocol} is not supported`)
    }
    const http = createHttpClient({
      component: 'design',
      baseUrl: url.origin,
      timeoutMs: options.timeoutMs,
      dispatcher: options.dispatcher,
      serviceAuth,
      maxResponseBytes: 32 * 1024 * 1024
    })
    let text: string
    try {
      const headers = { accept: 'application/x-yaml, application/json;q=0.9' }
      const response = await http.expectOk('GET', `${url.pathname}${url.search}`, { ctx, headers })
      text = response.text
    } catch (error) {
      const why = error instanceof ApiError ? error.reason : (error as Error).message
      throw new DesignUnavailableError(`Cannot read the design at ${href}: ${why}`)
    }
    try {
      // a JSON answer is one document holding the list
      const documents = parseYamlDocuments(text)
      return documents.length === 1 && Array.isArray(documents[0]) ? documents[0] : documents.filter((d) => d !== null)
    } catch (error) {
      throw new DesignUnavailableError(`The design at ${href} is not YAML: ${(error as Error).message}`)
    }
  }
}
