// A counting proxy between the orchestrator and the real Airflow, on 127.0.0.1 port 0: every request is passed on
// unchanged (streamed both ways) and remembered with its time, method, path and status, so that a test can count
// the engine calls the orchestrator makes in a window. While Airflow is down the proxy drops the connection without
// an answer (status 0 in its record), so that the orchestrator meets a vanished engine as it would without it.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One call: when it reached the proxy, when its answer had been passed on (absent while it runs), its status. */
export interface EngineCall { at: number, done?: number, method: string, path: string, status: number }

export interface EngineProxy {
  url: string
  calls: EngineCall[]
  /** The calls from `from` (ms since the epoch) up to `to` (default now). */
  between: (from: number, to?: number) => EngineCall[]
  close: () => Promise<void>
}

export async function startEngineProxy (target: { host: string, port: number }): Promise<EngineProxy> {
  const calls: EngineCall[] = []
  const pass = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const at = Date.now()
    const path = incoming.url ?? '/'
    const call: EngineCall = { at, method: incoming.method ?? 'GET', path, status: 0 }
    calls.push(call)
    const options = { host: target.host, port: target.port, method: incoming.method, path, headers: incoming.headers }
    const upstream = request(options, (answer) => {
      call.status = answer.statusCode ?? 0
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
      outgoing.once('finish', () => { call.done = Date.now() })
    })
    upstream.once('error', () => {
      call.done = Date.now()
      incoming.socket.destroy()
    })
    incoming.pipe(upstream)
  }
  const server = createServer(pass)
  server.keepAliveTimeout = 2000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => { resolve() })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    between: (from, to = Date.now()) => calls.filter((c) => c.at >= from && c.at <= to),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => { server.close(() => { resolve() }) })
    }
  }
}
