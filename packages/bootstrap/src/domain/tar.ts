// A minimal ustar writer: the join script's payload is a gzip-compressed tar of files and symlinks.
import { gzipSync } from 'node:zlib'

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
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`path too long for the archive: ${entry.path}`)
    prefix = name.slice(0, cut)
    name = name.slice(cut + 1)
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

/** The entries as a .tar.gz; a later entry with the same path wins when extracted. */
export function tarGz (entries: TarEntry[], mtime = new Date()): Buffer {
  const mtimeS = Math.floor(mtime.getTime() / 1000)
  const parts: Buffer[] = []
  for (const entry of entries) {
    const body = entry.symlink === undefined ? Buffer.from(entry.content ?? '') : Buffer.alloc(0)
    parts.push(header(entry, body.length, mtimeS), body)
    const padding = (512 - (body.length % 512)) % 512
    if (padding > 0) parts.push(Buffer.alloc(padding))
  }
  parts.push(Buffer.alloc(1024))
  return gzipSync(Buffer.concat(parts))
}
