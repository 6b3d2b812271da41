// Which failed triggers certainly made no run (triggerRefused): an engine refusal (4xx) or a connection refused, yes;
// a timeout, a 5xx (the engine's, or a proxy's in front of it) or a connection broken off, no — the run may exist.
import { createServer } from 'node:net'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createEngineClient, triggerRefused } from '../../src/clients/engine.ts'

/** A scripted Airflow whose trigger answers `status` (or never answers: `hang`). */
async function airflow (trigger: number | 'hang' | 'reset') {
  // a hung request is dropped when the test ends
  const app = Fastify({ forceCloseConnections: true })
  app.post('/auth/token', async (_request, reply) => await reply.code(201).send({ access_token: 'x.eyJleHAiOjQxMDI0NDQ4MDB9.x' }))
  app.post('/api/v2/dags/:dag/dagRuns', async (request, reply) => {
    if (trigger === 'hang') return await new Promise(() => {})
    if (trigger === 'reset') { request.raw.socket.destroy(); return await reply.hijack() }
    return await reply.code(trigger).send({ detail: `answered ${trigger}` })
  })
  app.get('/api/v2/dags/:dag/dagRuns/:run', async (_request, reply) => await reply.code(404).send({ detail: 'no such run' }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

async function closedPort (): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

/**
 * The error of a trigger that fails. The timeout is long enough for any answer on a busy machine (a 4xx that came
 * late would read as a timeout), except where a test waits for the timeout itself.
 */
async function failedTrigger (baseUrl: string, timeoutMs = 10_000): Promise<unknown> {
  const client = createEngineClient({ baseUrl, username: 'admin', password: 'admin', timeoutMs })
  return await client.trigger('test_site', 'A1', {}).then(() => { throw new Error('the trigger did not fail') }, (error: unknown) => error)
}

describe('triggerRefused', () => {
  it.each([400, 403, 404, 422])('is true for an engine answering %i', async (status) => {
    expect(triggerRefused(await failedTrigger(await airflow(status)))).toBe(true)
  })

  it('is true for a 409 that keeps colliding on a run id the engine does not have', async () => {
    expect(triggerRefused(await failedTrigger(await airflow(409)))).toBe(true)
  })

  it('is true when the connection is refused: nothing reached the engine', async () => {
    expect(triggerRefused(await failedTrigger(await closedPort()))).toBe(true)
  })

  it.each([500, 502, 503, 504])('is false for %i: the engine (or a proxy) may have made the run', async (status) => {
    expect(triggerRefused(await failedTrigger(await airflow(status)))).toBe(false)
  })

  it('is false when the answer does not come in time, or the connection breaks off', async () => {
    expect(triggerRefused(await failedTrigger(await airflow('hang'), 500))).toBe(false)
    expect(triggerRefused(await failedTrigger(await airflow('reset')))).toBe(false)
  })
})
