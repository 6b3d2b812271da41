// The payload archive: compressed as it is written, and byte for byte the gzip of the whole tar.
import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ArchiveError, tar, tarGz, tarMember, type TarEntry } from '../../src/domain/tar.ts'

const NOW = new Date('2026-01-02T03:04:05Z')

describe('tarGz', () => {
  it('gives the bytes of gzip(tar(entries)), a large file and empty ones among them', async () => {
    const text = Buffer.from('kubelet --node-ip=192.168.77.11\n'.repeat(20_000))
    const entries: TarEntry[] = [
      { path: 'etc/hosts', mode: 0o644, content: '127.0.0.1 localhost\n' },
      { path: 'opt/blob', mode: 0o755, content: randomBytes(1024 * 1024 + 7) },
      { path: 'etc/empty', mode: 0o644, content: '' },
      { path: 'usr/local/bin/x', mode: 0o777, symlink: '/opt/blob' },
      { path: 'opt/text', mode: 0o644, content: Buffer.concat([text, randomBytes(10_001), text]) }
    ]
    const payload = await tarGz(entries, NOW)
    expect(payload.equals(gzipSync(await tar(entries, NOW)))).toBe(true)
    expect(await tarMember(payload, '/opt/text')).toEqual(entries[4]?.content)
  })

  it('refuses an entry the archive cannot hold with an ArchiveError', async () => {
    await expect(tarGz([{ path: 'opt/' + 'x'.repeat(101), mode: 0o644, content: 'x' }], NOW)).rejects.toBeInstanceOf(ArchiveError)
  })
})
