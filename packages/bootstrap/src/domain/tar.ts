// A minimal ustar writer and reader: the join script's payload is a gzip-compressed tar of files and symlinks,
// and a HostSystem file may be one member of a tarball the design points at. Compressing and decompressing run on
// zlib's thread pool, never on the event loop: a payload of tens of megabytes takes seconds to compress.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { createGzip, gunzip } from 'node:zlib'

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
  content?: Buffer | string
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

/** The archive's pieces in order: each entry's header, its bytes (as they are, never copied) and padding, then the end. */
function * tarParts (entries: TarEntry[], mtime: Date): Generator<Buffer> {
  const mtimeS = Math.floor(mtime.getTime() / 1000)
  for (const entry of entries) {
    const body = entry.symlink !== undefined
      ? EMPTY
      : typeof entry.content === 'string' ? Buffer.from(entry.content) : entry.content ?? EMPTY
    yield header(entry, body.length, mtimeS)
    if (body.length > 0) yield body
    const padding = (512 - (body.length % 512)) % 512
    if (padding > 0) yield Buffer.alloc(padding)
  }
  yield Buffer.alloc(1024)
}

/** The entries as an uncompressed tar archive; a later entry with the same path wins when extracted. */
export function tar (entries: TarEntry[], mtime = new Date()): Buffer {
  return Buffer.concat([...tarParts(entries, mtime)])
}

/**
 * The entries as a .tar.gz, compressed off the event loop. The tar is never made whole: each piece goes into the
 * compressor as it comes, so a join holds its files and the compressed payload, not a copy of every file besides.
 * The bytes are those of gzip(tar(entries)): deflate's output does not depend on how its input is cut.
 */
export async function tarGz (entries: TarEntry[], mtime = new Date()): Promise<Buffer> {
  const compressed: Buffer[] = []
  await pipeline(Readable.from(tarParts(entries, mtime), { objectMode: false }), createGzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) compressed.push(chunk)
  })
  return Buffer.concat(compressed)
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
