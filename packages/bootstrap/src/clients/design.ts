// Fetches a site design from its design_ref: `deckhand+http(s)://` is the store's
// rendered documents, read with the service's identity; plain http(s) is a YAML file the domain renders. Either is
// fetched only from a design host (DESIGN_HOSTS): a reference to any other host is refused before anything is sent.
// The text is handed over as it came: reading it (within bounds) and rendering it are the domain's.
import { createHttpClient, DownstreamError, type CallContext, type Metrics, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import { DesignError } from '../errors.ts'
import type { DesignHosts, FetchedDesign } from '../types.ts'

export interface DesignFetcherOptions {
  timeoutMs: number
  /** Largest design accepted, in bytes. */
  maxBytes: number
  serviceAuth: ServiceTokenSource
  /** The only hosts a reference may name; they alone receive the service's (or the caller's) token. */
  designHosts: DesignHosts
  dispatcher?: Dispatcher
  /** Where each fetch's latency and outcome is counted. */
  metrics?: Pick<Metrics, 'outbound'> | undefined
}

/** The URL a design_ref names; one that does not parse is bad input (400), not a crash. */
function designUrl (designRef: string, fromStore: boolean): URL {
  const href = fromStore ? designRef.slice('deckhand+'.length) : designRef
  if (!URL.canParse(href)) throw new DesignError('design_ref is not a valid URL', 'InvalidFormatError')
  return new URL(href)
}

/** The design text behind `designRef`; fetch failures are DownstreamError('store'), a refused reference DesignError. */
export function createDesignFetcher (options: DesignFetcherOptions) {
  return async function fetchDesign (designRef: string, ctx: CallContext, callerToken?: string): Promise<FetchedDesign> {
    const fromStore = designRef.startsWith('deckhand+')
    const url = designUrl(designRef, fromStore)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new DesignError(`design_ref scheme ${url.protocol} is not supported`, 'InvalidFormatError')
    }
    // refused rather than fetched without credentials: fetching a host the caller picks is itself the hazard
    if (!options.designHosts.allows(url)) {
      throw new DesignError(
        `design_ref names ${url.host}, which is not one of this service's design hosts (DESIGN_HOSTS)`,
        'InvalidFormatError'
      )
    }
    // Deckhand redacts encrypted documents unless asked for cleartext, and a join script needs the keys
    if (fromStore && !url.searchParams.has('cleartext-secrets')) url.searchParams.set('cleartext-secrets', 'true')
    // the store is read with the service's own identity; with none configured, the caller's token (documented extension)
    const serviceToken = await options.serviceAuth.token()
    const http = createHttpClient({
      component: 'store',
      baseUrl: url.origin,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxBytes,
      dispatcher: options.dispatcher,
      metrics: options.metrics,
      serviceAuth: fromStore ? { token: async () => serviceToken ?? callerToken, invalidate: options.serviceAuth.invalidate } : undefined
    })
    const response = await http.request('GET', url.pathname + url.search, { ctx, headers: { accept: 'application/x-yaml' } })
    if (response.statusCode !== 200) {
      throw new DownstreamError(
        'store',
        `${response.statusCode} Client Error: fetching the design from ${url.origin}${url.pathname} answered ${response.statusCode}`,
        { upstreamStatus: response.statusCode }
      )
    }
    return { text: response.text, rendered: fromStore }
  }
}

export type DesignFetcher = ReturnType<typeof createDesignFetcher>
