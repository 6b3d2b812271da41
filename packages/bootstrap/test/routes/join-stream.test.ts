// The join script is sent as it is written (issue 35): a payload file that fails midway breaks the connection off,
// so a client never takes a cut-off script for a whole one, and a join's files are let go however its answer ends.
import { randomBytes } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import { request } from 'undici'
import { parseAllDocuments, stringify } from 'yaml'
import { AUTH } from '@slipway/common/testing'
import type { FileSources } from '../../src/clients/file-sources.ts'
import { createGpgEncryptor, gpgAvailable, type PayloadEncryptor } from '../../src/clients/gpg.ts'
import { buildTestApp, clusterNodes, exampleDesign, joinUrl, startDesignServer, startKube } from '../helpers/servers.ts'

const HAS_GPG = gpgAvailable('gpg')
const FILE_URL = 'http://files.example.org/blob'
const CHUNK = 64 * 1024

const ENCRYPTED = `---
schema: promenade/EncryptionPolicy/v1
metadata:
  schema: metadata/Document/v1
  name: encryption-policy
  layeringDefinition:
    abstract: false
    layer: site
  storagePolicy: cleartext
data:
  scripts:
    join: {gpg: {}}
`

function designWithFile (extra = ''): string {
  return parseAllDocuments(exampleDesign() + extra).flatMap((doc) => {
    const value = doc.toJS() as { schema: string, data: { files?: unknown[] } } | null
    if (value === null) return []
    if (value.schema === 'promenade/HostSystem/v1') value.data.files = [{ path: '/opt/blob', url: FILE_URL }]
    return [stringify(value)]
  }).join('---\n')
}

/**
 * A file source whose one file announces `size` bytes and gives `chunks` of them before it fails (Infinity: it never
 * fails, each chunk made when asked for); `released` settles when the join lets its files go, `closed` when the file's
 * reader was stopped.
 */
function brokenFile (size: number, chunks: number) {
  const seen = { read: 0 }
  let released!: () => void
  let closed!: () => void
  const wasReleased = new Promise<void>((resolve) => { released = resolve })
  const wasClosed = new Promise<void>((resolve) => { closed = resolve })
  const fetchFiles: FileSources = async () => ({
    files: new Map([[FILE_URL, {
      size,
      read: async function * () {
        try {
          for (let i = 0; i < chunks; i++) {
            seen.read += CHUNK
            yield randomBytes(CHUNK)
          }
          throw new Error('the file source broke off')
        } finally {
          closed()
        }
      }
    }]]),
    release: async () => { released() }
  })
  return { fetchFiles, seen, wasReleased, wasClosed }
}

async function listen (fetchFiles: FileSources, encryptPayload?: PayloadEncryptor): Promise<string> {
  const store = await startDesignServer(designWithFile(encryptPayload === undefined ? '' : ENCRYPTED))
  const kube = await startKube(clusterNodes())
  const app = await buildTestApp({ kubeUrl: kube.url, designHosts: [store.url], fetchFiles, encryptPayload })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close() })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return `http://127.0.0.1:${port}` + joinUrl([['design_ref', `${store.url}/site.yaml`], ['hostname', 'n1'], ['ip', '192.168.77.11']])
}

describe('GET /join-scripts, sent as it is written', () => {
  it('breaks the connection off when a payload file fails midway, and lets the files go', { timeout: 60_000 }, async () => {
    const file = brokenFile(64 * 1024 * 1024, 16)
    const res = await request(await listen(file.fetchFiles), { headers: AUTH })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/x-shellscript/)
    // chunked: no length a cut-off answer could be measured against, so only a broken connection tells
    expect(res.headers['content-length']).toBeUndefined()
    const received: Buffer[] = []
    const reading = (async () => { for await (const chunk of res.body) received.push(chunk as Buffer) })()
    await expect(reading).rejects.toThrow()
    const text = Buffer.concat(received).toString()
    expect(text.startsWith('#!/usr/bin/env bash\n')).toBe(true)
    expect(text).not.toContain('finished join process')
    await file.wasClosed
    await file.wasReleased
  })

  it.skipIf(!HAS_GPG)('breaks an encrypted answer off the same way: gpg never ends a payload whose input failed', { timeout: 60_000 }, async () => {
    const file = brokenFile(64 * 1024 * 1024, 16)
    const res = await request(await listen(file.fetchFiles, createGpgEncryptor({ passphrase: 'secret' })), { headers: AUTH })
    expect(res.statusCode).toBe(200)
    const received: Buffer[] = []
    const reading = (async () => { for await (const chunk of res.body) received.push(chunk as Buffer) })()
    await expect(reading).rejects.toThrow()
    expect(Buffer.concat(received).toString()).not.toContain('finished join process')
    await file.wasReleased
  })

  it('stops reading the payload files when the client goes away, and lets them go', { timeout: 60_000 }, async () => {
    const file = brokenFile(1024 * 1024 * 1024, Infinity)
    const res = await request(await listen(file.fetchFiles), { headers: AUTH })
    expect(res.statusCode).toBe(200)
    let got = 0
    for await (const chunk of res.body) {
      got += (chunk as Buffer).length
      if (got > 4 * 1024 * 1024) break
    }
    await file.wasClosed
    await file.wasReleased
    // backpressure: the service read little more than what was sent, not the gigabyte it was offered
    expect(file.seen.read).toBeLessThan(64 * 1024 * 1024)
  })
})
