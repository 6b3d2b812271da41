// A pass-through HTTP proxy on 127.0.0.1 (port 0) in front of a stand-in: forwards every request, keeps each
// exchange, and can answer some requests itself (a component failing on one path). Closed when the test finishes.
import Fastify from 'fastify'
import { request } from 'undici'
import { onTestFinished } from 'vitest'
import { acceptAllBodiesAsText } from '@slipway/common'

export interface Exchange { method: string, path: string, body: unknown, status: number, response: unknown, text: string }

function jsonOrText (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** `target` is an origin; `answer` may answer a request instead of the target (return undefined to forward). */
export async function startPassThrough (target: string, answer?: (path: string) => { status: number, text: string } | undefined) {
  const exchanges: Exchange[] = []
  // closing drops open connections too: a client polling through the proxy must not hold the test's end
  const app = Fastify({ forceCloseConnections: true })
  acceptAllBodiesAsText(app)
  app.all('/*', async (incoming, reply) => {
    const own = answer?.(incoming.url)
    if (own !== undefined) return await reply.code(own.status).send(own.text)
    const sent = typeof incoming.body === 'string' && incoming.body !== '' ? incoming.body : undefined
    const headers = { ...incoming.headers }
    delete headers.host
    delete headers['content-length']
    const forwarded = await request(target + incoming.url, { method: incoming.method as 'GET', headers, body: sent })
    const text = await forwarded.body.text()
    exchanges.push({
      method: incoming.method,
      path: incoming.url,
      body: sent === undefined ? undefined : jsonOrText(sent),
      status: forwarded.statusCode,
      response: jsonOrText(text),
      text
    })
    return await reply.code(forwarded.statusCode).header('content-type', forwarded.headers['content-type'] ?? 'application/json').send(text)
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, exchanges }
}
