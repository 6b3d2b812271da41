// The join script's bytes as a stream: the script's text around the payload, the payload's base64 written as the
// payload comes, so that neither the payload nor its base64 is ever whole in memory.
import type { Readable } from 'node:stream'

const EMPTY = Buffer.alloc(0)

/** Base64 is written in groups of three bytes: only the payload's last chunk may end in padding. */
const BASE64_CHUNK = 3 * 64 * 1024

/**
 * The script's bytes: its head, the payload's base64 as the payload comes (a few chunks held at a time), its tail.
 * The payload is started only when the head has been read, and stopped (and with it the archive's files and gpg)
 * when the reader goes away.
 */
export async function * scriptChunks (head: Buffer, payload: () => Readable, tail: Buffer): AsyncGenerator<Buffer> {
  yield head
  const source = payload()
  try {
    let rest = EMPTY
    for await (const chunk of source) {
      const bytes = rest.length === 0 ? chunk as Buffer : Buffer.concat([rest, chunk as Buffer])
      const whole = bytes.length - (bytes.length % 3)
      for (let i = 0; i < whole; i += BASE64_CHUNK) {
        yield Buffer.from(bytes.subarray(i, Math.min(i + BASE64_CHUNK, whole)).toString('base64'), 'latin1')
      }
      rest = Buffer.from(bytes.subarray(whole))
    }
    if (rest.length > 0) yield Buffer.from(rest.toString('base64'), 'latin1')
  } finally {
    source.destroy()
  }
  yield tail
}
