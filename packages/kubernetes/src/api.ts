// A bare HTTP client for the API server the tests start: TLS trusting its CA only, a bearer token per call, the
// answer kept as status, text and parsed JSON (no client library: the tests look at the wire).
import { Agent, request } from 'undici'

export interface KubeAnswer {
  status: number
  text: string
  /** The JSON body, or undefined when the body is not JSON. */
  json: unknown
}

export interface KubeCall {
  token?: string | undefined
  body?: unknown
  contentType?: string
}

export interface KubeApi {
  call: (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, options?: KubeCall) => Promise<KubeAnswer>
  close: () => Promise<void>
}

export function createKubeApi (server: string, ca?: string): KubeApi {
  const dispatcher = new Agent({ connect: ca === undefined ? {} : { ca } })
  return {
    async call (method, path, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json' }
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
      let body: string | undefined
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
        headers['content-type'] = options.contentType ?? 'application/json'
      }
      const response = await request(new URL(path, server), {
        method, headers, body, dispatcher, headersTimeout: 30_000, bodyTimeout: 30_000
      })
      const text = await response.body.text()
      let json: unknown
      try { json = JSON.parse(text) } catch { json = undefined }
      return { status: response.statusCode, text, json }
    },
    async close () { await dispatcher.close() }
  }
}
