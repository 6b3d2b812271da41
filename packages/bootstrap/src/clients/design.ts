// Fetches a site design from its design_ref (spec/bootstrap.md §6.3): `deckhand+http(s)://` is the store's
// rendered documents, read with the service's identity; plain http(s) is a YAML file rendered here. Either is
// fetched only from a design host (DESIGN_HOSTS): a reference to any other host is refused before anything is sent.
import { createHttpClient, DownstreamError, parseYamlDocuments, YamlError, type CallContext, type Metrics, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import { DesignError, prepareLocalDesign, type DesignDocument } from '../domain/documents.ts'
import type { DesignHosts } from '../domain/design-hosts.ts'

export interface DesignFetcherOptions {
  timeoutMs: number
  maxBytes: number
  serviceAuth: ServiceTokenSource
  /** The only hosts a reference may name; they alone receive the service's (or the caller's) token. */
  designHosts: DesignHosts
  dispatcher?: Dispatcher
  /** Where each fetch's latency and outcome is counted. */
  metrics?: Pick<Metrics, 'outbound'> | undefined
}

/** A fetched design that does not parse as YAML: a 400 for validatedesign, the store's 502 for join-scripts (§6.6). */
export class DesignYamlError extends DesignError {
  constructor (where: string) {
    super(`The design is not valid YAML${where}`, 'InvalidFormatError')
    this.name = 'DesignYamlError'
  }
}

/**
 * Parses multi-document YAML (PyYAML's 1.1 semantics) with a bound on aliases; empty documents are skipped. A
 * syntax error is told by its line and column only: the parser's message quotes the text around it, and what a
 * fetched document holds is never reflected to the caller (issue 18).
 */
export function parseDesignYaml (text: string): unknown[] {
  try {
    return parseYamlDocuments(text)
  } catch (error) {
    if (!(error instanceof YamlError)) throw error
    const position = /at line (\d+), column (\d+)/.exec(error.message)
    throw new DesignYamlError(position === null ? '' : ` (line ${position[1] ?? '?'}, column ${position[2] ?? '?'})`)
  }
}

/** The URL a design_ref names; one that does not parse is bad input (400), not a crash. */
function designUrl (designRef: string, fromStore: boolean): URL {
  const href = fromStore ? designRef.slice('deckhand+'.length) : designRef
  if (!URL.canParse(href)) throw new DesignError('design_ref is not a valid URL', 'InvalidFormatError')
  return new URL(href)
}

/** The documents behind `designRef`; fetch failures are DownstreamError('store'), design defects DesignError. */
export function createDesignFetcher (options: DesignFetcherOptions) {
  return async function fetchDesign (designRef: string, ctx: CallContext, callerToken?: string): Promise<DesignDocument[]> {
    const fromStore = designRef.startsWith('deckhand+')
    const url = designUrl(designRef, fromStore)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DesignError(`design_ref scheme ${url.protocol} is not supported`, 'InvalidFormatError')
    // refused rather than fetched without credentials: fetching a host the caller picks is itself the hazard
    if (!options.designHosts.allows(url)) {
      throw new DesignError(`design_ref names ${url.host}, which is not one of this service's design hosts (DESIGN_HOSTS)`, 'InvalidFormatError')
    }
    // Deckhand redacts encrypted documents unless asked (spec/store.md §12), and a join script needs the keys
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
      throw new DownstreamError('store', `${response.statusCode} Client Error: fetching the design from ${url.origin}${url.pathname} answered ${response.statusCode}`, { upstreamStatus: response.statusCode })
    }
    const raw = parseDesignYaml(response.text)
    if (fromStore) return raw as DesignDocument[]
    return prepareLocalDesign(raw)
  }
}

export type DesignFetcher = ReturnType<typeof createDesignFetcher>
