// An HTTP proxy on 127.0.0.1 (port 0) that lets a test stop a request at a chosen point and keep it there while it
// kills a process — the caller or the component behind the proxy — so that the kill lands in the middle of that
// request by construction, not by timing. Each request is matched against the rule the test set:
// - `pass`: sent on, the answer returned;
// - `hold`: kept whole, nothing sent on; the test then lets it `land` (sent on, e.g. after the caller died) or `lose`s it;
// - `hold-answer`: sent on whole, the component's answer kept from the caller (the write done, the caller not told);
// - `half-body`: the headers and the first half of the body sent on, the rest kept back (the component in the
//   middle of receiving the write).
// A request stopped this way is handed to the test by `held()`; `release` lets a `hold` or `hold-answer` go on as if the
// component had been slow: the caller gets the component's answer. The proxy's target may change (`retarget`), so a
// component restarted on another port is reached at the same address. Closed when the test finishes.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import { onTestFinished } from 'vitest'

export type HoldRule = 'pass' | 'hold' | 'hold-answer' | 'half-body'

export interface HeldRequest {
  method: string
  /** The path without the query. */
  path: string
  body: string
  /** Resolves once the caller's connection is gone (its process killed, its timeout). */
  callerGone: Promise<void>
  /** `hold`: sends the request on now; resolves with the component's status (0: no answer). */
  land: () => Promise<number>
  /** `hold`: the request is never sent on. Any mode: the caller's connection is cut. */
  lose: () => void
  /** `hold`: sends the request on now; `hold-answer`: the kept answer. Either way the caller gets the answer. */
  release: () => Promise<void>
}

interface Incoming { method: string, path: string }

export async function startHoldingProxy (target: string) {
  let origin = new URL(target).origin
  let rule: (r: Incoming) => HoldRule = () => 'pass'
  const seen: Incoming[] = []
  const unclaimed: HeldRequest[] = []
  const waiters: Array<(held: HeldRequest) => void> = []
  const open = new Set<ServerResponse>()

  /** Sends `incoming` on with `body` (all of it, or `sent` bytes of it); the upstream request and its answer. */
  function forward (incoming: IncomingMessage, body: Buffer, sent = body.length) {
    const headers = { ...incoming.headers, host: new URL(origin).host, 'content-length': String(body.length) }
    const upstream = request(origin + (incoming.url ?? ''), { method: incoming.method, headers })
    const answer = new Promise<{ status: number, headers: IncomingMessage['headers'], body: Buffer }>((resolve, reject) => {
      upstream.on('response', (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }) })
        res.on('error', reject)
      })
      upstream.on('error', reject)
    })
    answer.catch(() => {})
    if (sent >= body.length) upstream.end(body)
    else upstream.write(body.subarray(0, sent))
    return { upstream, answer }
  }

  function hand (held: HeldRequest): void {
    const waiter = waiters.shift()
    if (waiter === undefined) unclaimed.push(held)
    else waiter(held)
  }

  async function handle (incoming: IncomingMessage, body: Buffer, reply: ServerResponse): Promise<void> {
    const r: Incoming = { method: incoming.method ?? 'GET', path: (incoming.url ?? '').split('?')[0] ?? '' }
    seen.push(r)
    const mode = rule(r)
    const callerGone = new Promise<void>((resolve) => { reply.on('close', () => { resolve() }) })
    const cut = (): void => { reply.destroy() }
    const answerCaller = (answer: { status: number, headers: IncomingMessage['headers'], body: Buffer } | undefined): void => {
      if (reply.destroyed) return
      if (answer === undefined) { cut(); return }
      reply.writeHead(answer.status, answer.headers).end(answer.body)
    }
    const base = { ...r, body: body.toString(), callerGone, lose: cut, release: async () => {} }
    if (mode === 'pass') {
      const answer = await forward(incoming, body).answer
      if (!reply.destroyed) reply.writeHead(answer.status, answer.headers).end(answer.body)
      return
    }
    if (mode === 'hold') {
      hand({
        ...base,
        land: async () => await forward(incoming, body).answer.then((a) => a.status, () => 0),
        lose: cut,
        release: async () => { answerCaller(await forward(incoming, body).answer.catch(() => undefined)) }
      })
      return
    }
    if (mode === 'hold-answer') {
      // handed over only once the component has answered: its write is done, the caller not told
      const answer = await forward(incoming, body).answer.catch(() => undefined)
      hand({ ...base, land: async () => 0, release: async () => { answerCaller(answer) } })
      return
    }
    const { upstream } = forward(incoming, body, Math.floor(body.length / 2))
    // the component going away mid-body ends the caller's request as well
    upstream.on('error', cut)
    upstream.on('close', cut)
    hand({ ...base, land: async () => 0 })
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
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  return {
    /** The target's URL (its path kept) at the proxy's address. */
    url: url.toString().replace(/\/$/, ''),
    seen,
    /** Decides what becomes of each request from now on. */
    set (next: (r: Incoming) => HoldRule): void { rule = next },
    /** Sends every later request to `next` instead (a component restarted elsewhere). */
    retarget (next: string): void { origin = new URL(next).origin },
    /** The next request stopped by the rule, once it is. */
    async held (): Promise<HeldRequest> {
      const first = unclaimed.shift()
      if (first !== undefined) return first
      return await new Promise<HeldRequest>((resolve) => waiters.push(resolve))
    }
  }
}

export type HoldingProxy = Awaited<ReturnType<typeof startHoldingProxy>>
