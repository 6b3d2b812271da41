// The HostSystem file cache (issue 25, fault 5): bounded in bytes, least recently used first out, a file larger than
// the bound never kept, an expired file fetched again.
import { readdirSync } from 'node:fs'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createFileSources } from '../../src/clients/file-sources.ts'
import { createDesignHosts } from '../../src/domain/design-hosts.ts'
import type { FileBody } from '../../src/types.ts'
import { tempDir } from '../helpers/script.ts'

/** Serves `sizes[name]` bytes at /name; counts the requests per path. */
async function startFileServer (sizes: Record<string, number>) {
  const hits = new Map<string, number>()
  const app = Fastify()
  app.get('/:name', async (request, reply) => {
    const name = (request.params as { name: string }).name
    hits.set(name, (hits.get(name) ?? 0) + 1)
    return await reply.send(Buffer.alloc(sizes[name] ?? 0, name))
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  return { url, hits }
}

async function setup (sizes: Record<string, number>, cacheMaxBytes: number, cacheTtlMs = 60_000) {
  const server = await startFileServer(sizes)
  const spoolDir = tempDir()
  const fetchFiles = createFileSources({
    timeoutMs: 5000,
    attempts: 1,
    retryDelayMs: 0,
    maxBytes: 1024 * 1024,
    cacheTtlMs,
    cacheMaxBytes,
    hosts: createDesignHosts(new URL(server.url).host, server.url),
    spoolDir
  })
  const url = (name: string): string => `${server.url}/${name}`
  /** One join's fetch of `name`: its bytes, read and let go. */
  const fetch = async (name: string): Promise<Buffer | undefined> => {
    const fetched = await fetchFiles([url(name)], {})
    try {
      return await bytesOf(fetched.files.get(url(name)))
    } finally {
      await fetched.release()
    }
  }
  return { fetch, fetchFiles, url, spoolDir, hits: server.hits }
}

async function bytesOf (body: FileBody | undefined): Promise<Buffer | undefined> {
  if (body === undefined || Buffer.isBuffer(body)) return body
  const chunks: Buffer[] = []
  for await (const chunk of body.read()) chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('the HostSystem file cache', () => {
  it('holds at most its bound in bytes, evicting the least recently used file first', async () => {
    const { fetch, hits } = await setup({ a: 600, b: 600, c: 600 }, 1300)
    expect((await fetch('a'))?.length).toBe(600)
    await fetch('b')
    // both fit (1,200 bytes); a is used again, so b is now the least recently used
    await fetch('a')
    expect(Object.fromEntries(hits)).toEqual({ a: 1, b: 1 })
    // c makes 1,800 bytes: b goes
    await fetch('c')
    await fetch('a')
    await fetch('c')
    expect(Object.fromEntries(hits)).toEqual({ a: 1, b: 1, c: 1 })
    expect((await fetch('b'))?.toString()).toBe('b'.repeat(600))
    expect(hits.get('b')).toBe(2)
  })

  it('never keeps a file larger than the whole bound, and keeps nothing with a bound of 0', async () => {
    const large = await setup({ big: 2000, small: 100 }, 1000)
    await large.fetch('big')
    await large.fetch('big')
    await large.fetch('small')
    await large.fetch('small')
    expect(Object.fromEntries(large.hits)).toEqual({ big: 2, small: 1 })
    const none = await setup({ small: 100 }, 0)
    await none.fetch('small')
    await none.fetch('small')
    expect(none.hits.get('small')).toBe(2)
  })

  it('fetches a file again once its time to live is over (0: every time)', async () => {
    const { fetch, hits } = await setup({ a: 10 }, 1000, 0)
    await fetch('a')
    await fetch('a')
    expect(hits.get('a')).toBe(2)
  })

  it('keeps a file a join still holds: another goes, or the new file is not kept', async () => {
    const { fetch, fetchFiles, url, hits } = await setup({ a: 600, b: 600, c: 600, d: 900 }, 1300)
    await fetch('a')
    const join = await fetchFiles([url('a')], {})
    expect(Buffer.isBuffer(join.files.get(url('a')))).toBe(true)
    // b fits beside a; c makes 1,800 bytes: b goes, not the held a
    await fetch('b')
    await fetch('c')
    // d fits only if a went: it is not kept
    await fetch('d')
    await fetch('d')
    await fetch('a')
    expect(Object.fromEntries(hits)).toEqual({ a: 1, b: 1, c: 1, d: 2 })
    await join.release()
    // let go, a is evicted like any other file: d is kept now
    await fetch('d')
    await fetch('d')
    expect(hits.get('d')).toBe(3)
  })
})

describe('the files a join fetched', () => {
  it('are on disk until the join lets them go, then removed; a failed fetch leaves nothing behind', async () => {
    const { fetchFiles, url, spoolDir } = await setup({ a: 5000, b: 7000 }, 0)
    const join = await fetchFiles([url('a'), url('b')], {})
    expect((await bytesOf(join.files.get(url('b'))))?.toString()).toBe('b'.repeat(7000))
    expect(readdirSync(spoolDir)).toHaveLength(1)
    await join.release()
    expect(readdirSync(spoolDir)).toEqual([])
    await expect(fetchFiles([url('a'), `${url('missing')}/x`], {})).rejects.toMatchObject({ statusCode: 502 })
    expect(readdirSync(spoolDir)).toEqual([])
  })
})
