// The join script's bytes as a stream: the payload's base64 is the same however the payload comes cut, and a payload
// that fails fails the stream before the script's tail, so that no cut-off script ends as a whole one does.
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { scriptChunks } from '../../src/domain/script-stream.ts'

const HEAD = Buffer.from("echo '")
const TAIL = Buffer.from("' | base64 -d\n")

/** `bytes` cut into pieces of the given sizes, in turn. */
function cut (bytes: Buffer, sizes: number[], failAfter?: number): () => Readable {
  return () => Readable.from((async function * () {
    let at = 0
    for (let i = 0; at < bytes.length; i++) {
      if (failAfter !== undefined && at >= failAfter) throw new Error('the payload broke off')
      const size = sizes[i % sizes.length] as number
      yield bytes.subarray(at, at + size)
      at += size
    }
  })(), { objectMode: false })
}

describe('scriptChunks', () => {
  it('writes the base64 of the whole payload, however the payload is cut', async () => {
    const payload = randomBytes(700_003)
    for (const sizes of [[1], [2, 5], [3 * 64 * 1024 + 1], [65_536, 7, 100_000]]) {
      const script = Buffer.concat(await Readable.from(scriptChunks(HEAD, cut(payload, sizes), TAIL)).toArray() as Buffer[])
      expect(script.toString()).toBe(`echo '${payload.toString('base64')}' | base64 -d\n`)
    }
  })

  it('fails before the tail when the payload fails', async () => {
    const chunks: Buffer[] = []
    const script = scriptChunks(HEAD, cut(randomBytes(300_000), [4096], 100_000), TAIL)
    const reading = (async () => { for await (const chunk of script) chunks.push(chunk) })()
    await expect(reading).rejects.toThrow('the payload broke off')
    expect(Buffer.concat(chunks).toString()).not.toContain('base64 -d')
  })
})
