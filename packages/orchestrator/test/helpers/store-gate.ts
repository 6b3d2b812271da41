// An HTTP proxy on 127.0.0.1 (port 0) in front of the document store that decides, request by request, to pass it
// on, answer it itself, or hold it until the client closes its connection (its timeout, or its process killed):
// then the held request is sent on to the store after all (`land`) or never (`lose`). While a held request is
// settled no other request goes through, so a write that lands late lands before anything sent after it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { request } from 'undici'
import { onTestFinished } from 'vitest'

export interface GateRequest {
  method: string
  /** The path without the query. */
  path: string
  /** How many bucket writes (PUT .../documents) came before this request. */
  writesBefore: number
}

/** Pass on; hold until the client is gone, then `land` (send it on) or `lose` it; or answer this. */
export type GateAction = 'pass' | 'land' | 'lose' | { status: number, text: string }

export const isWrite = (r: GateRequest): boolean => r.method === 'PUT' && /\/buckets\/[^/]+\/documents$/.test(r.path)

export async function startStoreGate (target: string) {
  const origin = new URL(target).origin
  let rule: (r: GateRequest) => GateAction = () => 'pass'
  let writes = 0
  const seen: GateRequest[] = []
  const unclaimed: GateRequest[] = []
  const waiters: Array<(r: GateRequest) => void> = []
  const open = new Set<ServerResponse>()
  // requests wait here while a held one is settled
  let settling: Promise<void> = Promise.resolve()

  async function send (incoming: IncomingMessage, body: Buffer, reply: ServerResponse): Promise<void> {
    const headers = { ...incoming.headers }
    delete headers.host
    delete headers.connection
    delete headers['content-length']
    const answer = await request(origin + (incoming.url ?? ''), { method: incoming.method as 'GET', headers, body: body.length > 0 ? body : undefined })
    const text = Buffer.from(await answer.body.arrayBuffer())
    if (reply.destroyed) return
    reply.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/x-yaml') })
    reply.end(text)
  }

  async function handle (incoming: IncomingMessage, body: Buffer, reply: ServerResponse): Promise<void> {
    await settling
    const r: GateRequest = { method: incoming.method ?? 'GET', path: (incoming.url ?? '').split('?')[0] ?? '', writesBefore: writes }
    if (isWrite(r)) writes++
    seen.push(r)
    const action = rule(r)
    if (action === 'pass') return await send(incoming, body, reply)
    if (typeof action === 'object') { reply.writeHead(action.status, { 'content-type': 'text/plain' }).end(action.text); return }
    let settled!: () => void
    settling = new Promise<void>((resolve) => { settled = resolve })
    reply.on('close', () => {
      (action === 'land' ? send(incoming, body, reply) : Promise.resolve()).catch(() => {}).finally(settled)
    })
    const waiter = waiters.shift()
    if (waiter === undefined) unclaimed.push(r)
    else waiter(r)
  }

  const server = createServer((incoming, reply) => {
    open.add(reply)
    reply.on('close', () => open.delete(reply))
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => { handle(incoming, Buffer.concat(chunks), reply).catch(() => { reply.destroy() }) })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => {
    for (const reply of open) reply.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const address = server.address()
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String(typeof address === 'object' && address !== null ? address.port : 0)
  return {
    url: url.toString().replace(/\/$/, ''),
    seen,
    /** Decides what becomes of each request from now on. */
    set (next: (r: GateRequest) => GateAction): void { rule = next },
    /** The next request held, once it is. */
    async held (): Promise<GateRequest> {
      const first = unclaimed.shift()
      if (first !== undefined) return first
      return await new Promise<GateRequest>((resolve) => waiters.push(resolve))
    },
    /** Resolves once every held request is settled (landed or lost). */
    async settled (): Promise<void> { await settling }
  }
}

export type StoreGate = Awaited<ReturnType<typeof startStoreGate>>
