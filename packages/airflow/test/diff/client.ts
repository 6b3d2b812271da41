// One engine as the differential test talks to it: its credentials, a token, a recorder of every exchange under a
// stable call name, and tokens made to be refused (expired, signed with another secret) the way this engine signs.
import { createHmac } from 'node:crypto'
import type { Exchange } from './shape.ts'

export interface Target {
  name: 'stub-engine' | 'airflow'
  url: string
  username: string
  password: string
  /** The secret this engine signs its access tokens with. */
  jwtSecret: string
}

export interface Send {
  body?: unknown
  /** A raw body sent as it is (malformed JSON), with its content type. */
  raw?: { text: string, type: string }
  /** undefined: this engine's token; null: no Authorization header; a string: that bearer token. */
  token?: string | null
  accept?: string
}

export interface Recorder {
  target: Target
  exchanges: Exchange[]
  token: () => string
  /** Sends and records under `call`; answers the exchange. */
  record: (call: string, method: string, path: string, send?: Send) => Promise<Exchange>
  /** Sends without recording (the scenario's own polling). */
  request: (method: string, path: string, send?: Send) => Promise<Exchange>
}

const b64 = (value: string): string => Buffer.from(value).toString('base64url')

/**
 * The engine's own token with its claims changed, signed again with `secret` by the algorithm its header names
 * (HS256 for stub-engine, HS512 for Airflow): a token that is well formed, and refused only for what was changed.
 */
export function resignToken (token: string, secret: string, claims: Record<string, unknown>): string {
  const [header, payload] = token.split('.') as [string, string, string]
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string }
  const hash = ({ HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as Record<string, string>)[head.alg]
  if (hash === undefined) throw new Error(`cannot sign a ${head.alg} token`)
  const body = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>, ...claims }
  const signed = `${header}.${b64(JSON.stringify(body))}`
  return `${signed}.${createHmac(hash, secret).update(signed).digest('base64url')}`
}

export async function fetchExchange (
  url: string, call: string, method: string, path: string, send: Send, token: string | undefined
): Promise<Exchange> {
  const headers: Record<string, string> = { accept: send.accept ?? 'application/json' }
  const bearer = send.token === undefined ? token : send.token
  if (bearer !== null && bearer !== undefined) headers.authorization = `Bearer ${bearer}`
  let payload: string | undefined
  if (send.raw !== undefined) {
    payload = send.raw.text
    headers['content-type'] = send.raw.type
  } else if (send.body !== undefined) {
    payload = JSON.stringify(send.body)
    headers['content-type'] = 'application/json'
  }
  const response = await fetch(url + path, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) })
  const text = await response.text()
  let body: unknown = text
  try { body = JSON.parse(text) } catch {}
  return { call, method, path, status: response.status, body }
}

export async function recorder (target: Target): Promise<Recorder> {
  const exchanges: Exchange[] = []
  const login = await fetchExchange(target.url, 'login', 'POST', '/auth/token', { body: { username: target.username, password: target.password }, token: null }, undefined)
  const token = (login.body as { access_token?: string }).access_token
  if (login.status !== 201 || typeof token !== 'string') throw new Error(`${target.name}: no token (${login.status} ${JSON.stringify(login.body)})`)
  const request = async (method: string, path: string, send: Send = {}): Promise<Exchange> =>
    await fetchExchange(target.url, '', method, path, send, token)
  return {
    target,
    exchanges,
    token: () => token,
    request,
    async record (call, method, path, send = {}) {
      if (exchanges.some((e) => e.call === call)) throw new Error(`call named twice: ${call}`)
      const exchange = await fetchExchange(target.url, call, method, path, send, token)
      exchanges.push(exchange)
      return exchange
    }
  }
}
