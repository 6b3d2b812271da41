// An HTTP proxy on 127.0.0.1 (port 0) in front of a stand-in that decides per request: `pass` forwards it and
// answers; `hold` forwards it, lets the stand-in do it, and keeps the answer until the client gives up (an answer
// later than any timeout: the request was done, its answer lost); `drop` neither forwards nor answers (the request
// was lost). Nothing is timed: a held or dropped exchange ends when the client closes its connection. Closed when
// the test finishes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { request } from 'undici'
import { onTestFinished } from 'vitest'

export type Decision = 'pass' | 'hold' | 'drop'

export interface HeldExchange { method: string, path: string, decision: Decision, status?: number }

async function bodyOf (incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** `decide` is asked for every request, in the order they arrive. */
export async function startHoldingProxy (target: string, decide: (method: string, path: string) => Decision) {
  const exchanges: HeldExchange[] = []
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const method = incoming.method ?? 'GET'
    const path = incoming.url ?? '/'
    const decision = decide(method, path)
    const exchange: HeldExchange = { method, path, decision }
    exchanges.push(exchange)
    const exchangeDone = (async () => {
      const body = await bodyOf(incoming)
      if (decision === 'drop') return
      const headers = { ...incoming.headers }
      delete headers.host
      delete headers.connection
      delete headers['content-length']
      const forwarded = await request(target + path, { method: method as 'GET', headers, body: body.length === 0 ? undefined : body })
      const text = await forwarded.body.text()
      exchange.status = forwarded.statusCode
      if (decision === 'hold') return
      outgoing.writeHead(forwarded.statusCode, { 'content-type': String(forwarded.headers['content-type'] ?? 'application/json') })
      outgoing.end(text)
    })()
    exchangeDone.catch(() => { outgoing.destroy() })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, exchanges }
}

/** A trigger of a run (POST …/dagRuns), not the batch list (POST …/dagRuns/list). */
export const isTrigger = (method: string, path: string): boolean => method === 'POST' && /^\/api\/v2\/dags\/[^/~]+\/dagRuns$/.test(path)
