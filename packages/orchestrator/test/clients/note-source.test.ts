// The note fetcher against a note source on 127.0.0.1 answering each status in turn: a 2xx is the note's text,
// anything else (a redirect too: it is not followed) is an error naming the status, as is a size over the cap.
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DownstreamError } from '@slipway/common'
import { createNoteFetcher } from '../../src/clients/note-source.ts'

async function noteSource () {
  const app = Fastify()
  app.get('/status/:code', async (request, reply) => {
    const code = Number((request.params as { code: string }).code)
    if (code >= 300 && code < 400) return await reply.code(code).header('location', '/status/200').send('')
    return await reply.code(code).type('text/plain').send(code === 204 ? undefined : `answered ${code}`)
  })
  app.get('/big', async (_request, reply) => await reply.type('text/plain').send('x'.repeat(2000)))
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

describe('the note fetcher', () => {
  it('answers the text of a 2xx note URL', async () => {
    const url = await noteSource()
    const fetch = createNoteFetcher({ timeoutMs: 10_000, maxBytes: 1000 })
    expect(await fetch(`${url}/status/200`, false, {})).toBe('answered 200')
    expect(await fetch(`${url}/status/204`, false, {})).toBe('')
  })

  it.each([301, 302, 303, 307, 308, 304, 404, 500])('refuses a note URL answering %i, naming the status', async (code) => {
    const url = await noteSource()
    const fetch = createNoteFetcher({ timeoutMs: 10_000, maxBytes: 1000 })
    const failure = await fetch(`${url}/status/${code}`, false, {}).then(() => undefined, (error: unknown) => error)
    expect(failure).toBeInstanceOf(DownstreamError)
    expect((failure as DownstreamError).upstreamStatus).toBe(code)
    expect((failure as DownstreamError).reason).toMatch(new RegExp(`\\b${code}\\b`))
  })

  it('refuses a note larger than its cap', async () => {
    const url = await noteSource()
    const fetch = createNoteFetcher({ timeoutMs: 10_000, maxBytes: 1000 })
    await expect(fetch(`${url}/big`, false, {})).rejects.toMatchObject({ reason: expect.stringMatching(/more than 1000 bytes/) })
  })
})
