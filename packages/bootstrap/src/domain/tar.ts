// A minimal ustar writer and reader: the join script's payload is a gzip-compressed tar of files and symlinks,
// and a HostSystem file may be one member of a tarball the design points at. Compressing and decompressing run on
// zlib's thread pool, never on the event loop: a payload of tens of megabytes takes seconds to compress.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { createGzip, gunzip } from 'node:zlib'

import type { FileBody } from '../types.ts'

const gunzipAsync = promisify(gunzip)

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

/**
 * The content of the regular file `memberPath` inside a tar archive (gzip-compressed or not), or undefined
 * when the archive has no such file. Understands ustar prefixes, GNU long names and pax `path` records.
 * Throws an ArchiveError when the bytes are not a (gzip-compressed) tar archive.
 */
export async function tarMember (archive: Buffer, memberPath: string): Promise<Buffer | undefined> {
  let tar = archive
  if (archive[0] === 0x1f && archive[1] === 0x8b) {
    try {
      tar = await gunzipAsync(archive, { maxOutputLength: MAX_UNPACKED_BYTES })
    } catch (error) {
      throw new ArchiveError(`not a readable gzip archive: ${(error as Error).message}`)
    }
  }
  if (tar.length < 512 || tar.length % 512 !== 0) throw new ArchiveError('not a tar archive (its size is not a multiple of 512 bytes)')
  const wanted = normalise(memberPath)
  let offset = 0
  let longName: string | undefined
  while (offset + 512 <= tar.length) {
    const block = tar.subarray(offset, offset + 512)
    if (block.every((byte) => byte === 0)) return undefined
    let sum = 0
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i] as number
    if (Number.parseInt(field(block, 148, 8).trim(), 8) !== sum) throw new ArchiveError('not a tar archive (bad header checksum)')
    const size = Number.parseInt(field(block, 124, 12).trim() || '0', 8)
    const type = field(block, 156, 1) || '0'
    const body = tar.subarray(offset + 512, offset + 512 + size)
    if (body.length < size) throw new ArchiveError('truncated tar archive')
    offset += 512 + Math.ceil(size / 512) * 512
    if (type === 'L') { longName = field(body, 0, body.length); continue }
    if (type === 'x') {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1]
      if (path !== undefined) longName = path
      continue
    }
    const prefix = field(block, 345, 155)
    const name = longName ?? (prefix === '' ? field(block, 0, 100) : `${prefix}/${field(block, 0, 100)}`)
    longName = undefined
    if ((type === '0' || type === '7') && normalise(name) === wanted) return Buffer.from(body)
  }
  return undefined
}
