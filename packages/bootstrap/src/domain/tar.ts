// A minimal ustar writer and reader: the join script's payload is a gzip-compressed tar of files and symlinks,
// and a HostSystem file may be one member of a tarball the design points at. Compressing and decompressing run on
// zlib's thread pool, never on the event loop: a payload of tens of megabytes takes seconds to compress.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'

import type { FileBody } from '../types.ts'

/** An entry that cannot be written to, or a member that cannot be read from, an archive. */
export class ArchiveError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ArchiveError'
  }
}

const EMPTY = Buffer.alloc(0)

/** Largest tarball accepted once decompressed. */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024

export interface TarEntry {
  /** Path relative to `/`, without a leading slash. */
  path: string
  mode: number
  /** The bytes: text, bytes in memory, or a file read a chunk at a time as the archive is written. */
  content?: Buffer | string | FileBody
  /** Makes the entry a symbolic link to this target. */
  symlink?: string
}

function octal (value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

function header (entry: TarEntry, size: number, mtimeS: number): Buffer {
  const block = Buffer.alloc(512)
  let name = entry.path
  let prefix = ''
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155)
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new ArchiveError(`path too long for the archive: /${entry.path}`)
    prefix = name.slice(0, cut)
    name = name.slice(cut + 1)
  }
  if (entry.symlink !== undefined && Buffer.byteLength(entry.symlink) > 100) {
    throw new ArchiveError(`symlink target of /${entry.path} is longer than 100 bytes`)
  }
  block.write(name, 0, 100, 'utf8')
  block.write(octal(entry.mode & 0o7777, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  block.write(octal(size, 12), 124, 'ascii')
  block.write(octal(mtimeS, 12), 136, 'ascii')
  block.write('        ', 148, 'ascii')
  block.write(entry.symlink === undefined ? '0' : '2', 156, 'ascii')
  if (entry.symlink !== undefined) block.write(entry.symlink, 157, 100, 'utf8')
  block.write('ustar\0', 257, 'ascii')
  block.write('00', 263, 'ascii')
  block.write('root', 265, 'ascii')
  block.write('root', 297, 'ascii')
  block.write(prefix, 345, 155, 'utf8')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(octal(sum, 7) + ' ', 148, 'ascii')
  return block
}

/** An entry's body: its bytes in memory, or a file of known size read a chunk at a time. */
function bodyOf (entry: TarEntry): FileBody {
  if (entry.symlink !== undefined) return EMPTY
  if (typeof entry.content === 'string') return Buffer.from(entry.content)
  return entry.content ?? EMPTY
}

function sizeOf (body: FileBody): number {
  return Buffer.isBuffer(body) ? body.length : body.size
}

/**
 * Throws the ArchiveError an entry would meet while the archive is written (a path or link target the archive cannot
 * hold), so that it is known before the first byte of an answer is sent.
 */
export function checkEntries (entries: TarEntry[]): void {
  for (const entry of entries) header(entry, entry.symlink !== undefined ? 0 : 1, 0)
}

/**
 * The archive's pieces in order: each entry's header, its bytes (as they are, never copied; a file on disk a chunk at a
 * time, as it is read) and padding, then the end. A file that does not give the size it announced fails the archive:
 * its header already said how many bytes follow.
 */
async function * tarParts (entries: TarEntry[], mtime: Date): AsyncGenerator<Buffer> {
  const mtimeS = Math.floor(mtime.getTime() / 1000)
  for (const entry of entries) {
    const body = bodyOf(entry)
    const size = sizeOf(body)
    yield header(entry, size, mtimeS)
    if (Buffer.isBuffer(body)) {
      if (size > 0) yield body
    } else {
      let read = 0
      for await (const chunk of body.read()) {
        read += chunk.length
        if (read > size) break
        yield chunk
      }
      if (read !== size) throw new Error(`/${entry.path} gave ${read} bytes, not the ${size} its header announced`)
    }
    const padding = (512 - (size % 512)) % 512
    if (padding > 0) yield Buffer.alloc(padding)
  }
  yield Buffer.alloc(1024)
}

/** The entries as an uncompressed tar archive; a later entry with the same path wins when extracted. */
export async function tar (entries: TarEntry[], mtime = new Date()): Promise<Buffer> {
  return Buffer.concat(await Readable.from(tarParts(entries, mtime), { objectMode: false }).toArray() as Buffer[])
}

/**
 * The entries as a .tar.gz stream, compressed off the event loop as it is read: each piece of the archive goes into
 * the compressor when the reader wants more, so neither the tar nor the compressed payload is ever whole in memory.
 * The bytes are those of gzip(tar(entries)): deflate's output does not depend on how its input is cut. A file that
 * fails while it is read fails the stream.
 */
export function tarGzStream (entries: TarEntry[], mtime = new Date()): Readable {
  const gzip = createGzip()
  pipeline(Readable.from(tarParts(entries, mtime), { objectMode: false }), gzip).catch((error: unknown) => {
    gzip.destroy(error as Error)
  })
  return gzip
}

/** The entries as a .tar.gz in memory (small archives: tests, benches, a tarball for a test's file server). */
export async function tarGz (entries: TarEntry[], mtime = new Date()): Promise<Buffer> {
  checkEntries(entries)
  return Buffer.concat(await tarGzStream(entries, mtime).toArray() as Buffer[])
}

function field (block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length)
  const end = raw.indexOf(0)
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8')
}

function normalise (path: string): string {
  return path.replace(/^(\.\/|\/)+/, '')
}

/** Hands out exact numbers of bytes from a stream of chunks (fewer only at its end), counting what it read. */
function byteReader (source: AsyncIterator<Buffer>) {
  let pending: Buffer = EMPTY
  let read = 0
  return {
    async take (n: number): Promise<Buffer> {
      while (pending.length < n) {
        const next = await source.next()
        if (next.done === true) break
        read += next.value.length
        if (read > MAX_UNPACKED_BYTES) throw new ArchiveError(`larger than ${MAX_UNPACKED_BYTES} bytes unpacked`)
        pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value])
      }
      const out = pending.subarray(0, n)
      pending = pending.subarray(out.length)
      return out
    }
  }
}

/** A tarball's bytes, gunzipped as they are read when they are gzip-compressed (off the event loop). */
async function * unpacked (archive: FileBody): AsyncGenerator<Buffer> {
  const chunks: AsyncIterator<Buffer> = Buffer.isBuffer(archive)
    ? (async function * () { yield archive })()
    : archive.read()[Symbol.asyncIterator]()
  try {
    const first = await chunks.next()
    if (first.done === true) return
    const all = async function * (): AsyncGenerator<Buffer> {
      yield first.value
      for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) yield next.value
    }
    if (first.value[0] !== 0x1f || first.value[1] !== 0x8b) {
      yield * all()
      return
    }
    const gunzip = createGunzip()
    pipeline(Readable.from(all(), { objectMode: false }), gunzip).catch((error: unknown) => { gunzip.destroy(error as Error) })
    try {
      for await (const chunk of gunzip) yield chunk as Buffer
    } catch (error) {
      if (error instanceof ArchiveError) throw error
      throw new ArchiveError(`not a readable gzip archive: ${(error as Error).message}`)
    } finally {
      gunzip.destroy()
    }
  } finally {
    await chunks.return?.()
  }
}

/**
 * Walks a tar archive (gzip-compressed or not) as it is read, to its regular file `memberPath`: yields that file's
 * size, then its bytes a slice at a time; nothing when the archive has no such file. Understands ustar prefixes, GNU
 * long names and pax `path` records. Throws an ArchiveError when the bytes are not a (gzip-compressed) tar archive.
 */
async function * walkToMember (archive: FileBody, memberPath: string): AsyncGenerator<number | Buffer> {
  const bytes = unpacked(archive)
  try {
    const reader = byteReader(bytes[Symbol.asyncIterator]())
    const wanted = normalise(memberPath)
    let longName: string | undefined
    for (;;) {
      const block = await reader.take(512)
      if (block.length === 0) return
      if (block.length < 512) throw new ArchiveError('not a tar archive (its size is not a multiple of 512 bytes)')
      if (block.every((byte) => byte === 0)) return
      let sum = 0
      for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i] as number
      if (Number.parseInt(field(block, 148, 8).trim(), 8) !== sum) throw new ArchiveError('not a tar archive (bad header checksum)')
      const size = Number.parseInt(field(block, 124, 12).trim() || '0', 8)
      const type = field(block, 156, 1) || '0'
      const padded = Math.ceil(size / 512) * 512
      if (type === 'L' || type === 'x') {
        // a long name or pax record: small, read whole
        if (size > 1024 * 1024) throw new ArchiveError('not a tar archive (a name record larger than 1 MiB)')
        const body = await reader.take(padded)
        if (body.length < size) throw new ArchiveError('truncated tar archive')
        if (type === 'L') longName = field(body, 0, size)
        else longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.subarray(0, size).toString('utf8'))?.[1] ?? longName
        continue
      }
      const prefix = field(block, 345, 155)
      const name = longName ?? (prefix === '' ? field(block, 0, 100) : `${prefix}/${field(block, 0, 100)}`)
      longName = undefined
      const found = (type === '0' || type === '7') && normalise(name) === wanted
      if (found) yield size
      let left = padded
      let bodyLeft = size
      while (left > 0) {
        const wantedBytes = Math.min(left, 64 * 1024)
        const slice = await reader.take(wantedBytes)
        const inBody = Math.min(slice.length, bodyLeft)
        if (found && inBody > 0) yield slice.subarray(0, inBody)
        bodyLeft -= inBody
        left -= slice.length
        if (slice.length < wantedBytes) {
          if (bodyLeft > 0) throw new ArchiveError('truncated tar archive')
          break
        }
      }
      if (found) return
    }
  } finally {
    await bytes.return(undefined)
  }
}

/**
 * The size of the regular file `memberPath` inside a tar archive, or undefined when it has none (see walkToMember).
 * The member is read to its end, so that an archive cut short in it is refused here, not while it is sent.
 */
export async function tarMemberSize (archive: FileBody, memberPath: string): Promise<number | undefined> {
  let size: number | undefined
  for await (const item of walkToMember(archive, memberPath)) if (typeof item === 'number') size = item
  return size
}

/**
 * The regular file `memberPath` of a tar archive as a file read a chunk at a time, its size found first (so that an
 * archive without it is refused before anything else): the archive is read again each time the member is, and never
 * held unpacked.
 */
export async function tarMemberBody (archive: FileBody, memberPath: string): Promise<FileBody | undefined> {
  const size = await tarMemberSize(archive, memberPath)
  if (size === undefined) return undefined
  return {
    size,
    read: async function * () {
      for await (const item of walkToMember(archive, memberPath)) if (typeof item !== 'number') yield item
    }
  }
}

/** The content of the regular file `memberPath` inside a tar archive, in memory (small archives: tests). */
export async function tarMember (archive: FileBody, memberPath: string): Promise<Buffer | undefined> {
  const body = await tarMemberBody(archive, memberPath)
  if (body === undefined || Buffer.isBuffer(body)) return body
  const chunks: Buffer[] = []
  for await (const chunk of body.read()) chunks.push(chunk)
  return Buffer.concat(chunks)
}
