// Fetches a site design from its design_ref (spec/bootstrap.md §6.3): `deckhand+http(s)://` is the store's
// rendered documents, read with the service's identity; plain http(s) is a YAML file rendered here.
import { createHttpClient, DownstreamError, parseYamlDocuments, YamlError, type CallContext, type ServiceTokenSource } from '@slipway/common'
import type { Dispatcher } from 'undici'
import { DesignError, prepareLocalDesign, type DesignDocument } from '../domain/documents.ts'

export interface DesignFetcherOptions {
  timeoutMs: number
  maxBytes: number
  serviceAuth: ServiceTokenSource
  dispatcher?: Dispatcher
}

/** A fetched design that does not parse as YAML: a 400 for validatedesign, the store's 502 for join-scripts (§6.6). */
export class DesignYamlError extends DesignError {
  constructor (reason: string) {
    super(`The design is not valid YAML: ${reason}`, 'InvalidFormatError')
    this.name = 'DesignYamlError'
  }
}

/** Parses multi-document YAML (PyYAML's 1.1 semantics) with a bound on aliases; empty documents are skipped. */
export function parseDesignYaml (text: string): unknown[] {
  try {
    return parseYamlDocuments(text)
  } catch (error) {
    if (error instanceof YamlError) throw new DesignYamlError(error.message)
    throw error
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
