// The payload archive: compressed as it is written, and byte for byte the gzip of the whole tar.
import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ArchiveError, tar, tarGz, tarMember, tarMemberBody, type TarEntry } from '../../src/domain/tar.ts'

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
    // Buffer.equals: a deep comparison of a megabyte takes seconds
    expect((await tarMember(payload, '/opt/text'))?.equals(entries[4]?.content as Buffer)).toBe(true)
  })

  it('refuses an entry the archive cannot hold with an ArchiveError', async () => {
    await expect(tarGz([{ path: 'opt/' + 'x'.repeat(101), mode: 0o644, content: 'x' }], NOW)).rejects.toBeInstanceOf(ArchiveError)
  })
})

/** `bytes` as a file read in pieces of `size` bytes (a tarball fetched onto disk). */
function inPieces (bytes: Buffer, size: number) {
  return {
    size: bytes.length,
    read: async function * () { for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size) }
  }
}

describe('tarMemberBody', () => {
  const member = Buffer.concat([randomBytes(200_000), Buffer.from('end of the member\n')])
  const entries: TarEntry[] = [
    { path: 'srv/first', mode: 0o644, content: randomBytes(70_001) },
    { path: 'srv/' + 'deep/'.repeat(30) + 'member.bin', mode: 0o644, content: member },
    { path: 'srv/last', mode: 0o644, content: 'after\n' }
  ]

  it('finds a member as the archive is read, in pieces of any size, gzip-compressed or not', async () => {
    const plain = await tar(entries, NOW)
    const packed = await tarGz(entries, NOW)
    for (const archive of [inPieces(plain, 1000), inPieces(packed, 777), packed]) {
      const body = await tarMemberBody(archive, `/srv/${'deep/'.repeat(30)}member.bin`)
      expect(body).toMatchObject({ size: member.length })
      // read twice: the member is read from the archive each time, never kept
      expect((await tarMember(archive, `srv/${'deep/'.repeat(30)}member.bin`))?.equals(member)).toBe(true)
      expect(await tarMember(archive, 'srv/last')).toEqual(Buffer.from('after\n'))
      expect(await tarMemberBody(archive, 'srv/none')).toBeUndefined()
    }
  })

  it('refuses an archive cut short inside its member before the member is used', async () => {
    const plain = await tar(entries, NOW)
    const cut = plain.subarray(0, 512 + 70_144 + 512 + 1000)
    await expect(tarMemberBody(inPieces(cut, 4096), `srv/${'deep/'.repeat(30)}member.bin`)).rejects.toThrow('truncated tar archive')
    await expect(tarMemberBody(inPieces(Buffer.from('not a tarball'), 5), 'srv/last')).rejects.toBeInstanceOf(ArchiveError)
  })
})
