// A fake stub-site on 127.0.0.1:0 serving the step endpoint (POST /_stub/steps/{step}) as the contract shapes it:
// every call is recorded with its body and headers, and each step answers what the test tells it (by default a
// success with one info line naming the step and the task).
import { createServer, type IncomingMessage } from 'node:http'
import { onTestFinished } from 'vitest'
import type { SiteStepCall } from '../../src/index.ts'

export interface StepCall { step: string, body: SiteStepCall, headers: IncomingMessage['headers'] }

/** An answer: the contract's body (status 200), or any status and body to see how the engine takes a broken site. */
export type FakeAnswer = { outcome: string, log: Array<{ level: string, event: string }> } | { status: number, body: unknown }

export interface FakeSite {
  url: string
  calls: StepCall[]
  /** The answer of a step, by step name; absent: the default success. */
  answers: Map<string, (call: StepCall) => FakeAnswer>
}

export async function startFakeSite (): Promise<FakeSite> {
  const site: FakeSite = { url: '', calls: [], answers: new Map() }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const json = (status: number, value: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value)) }
      const match = /^\/_stub\/steps\/([^/]+)$/.exec(req.url ?? '')
      if (req.method !== 'POST' || match === null) return json(404, { message: `no route ${req.method} ${req.url}` })
      const call: StepCall = { step: decodeURIComponent(match[1]!), body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: req.headers }
      site.calls.push(call)
      const answer = site.answers.get(call.step)?.(call) ?? { outcome: 'success', log: [{ level: 'info', event: `site did ${call.step} for ${call.body.task_id}` }] }
      if ('status' in answer) return json(answer.status, answer.body)
      json(200, answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const address = server.address()
  site.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  return site
}
