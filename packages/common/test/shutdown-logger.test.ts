import { Writable } from 'node:stream'
import pino from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { onShutdown } from '../src/shutdown.ts'
import { loggerOptions } from '../src/logger.ts'

describe('onShutdown', () => {
  it('closes every resource in order on SIGTERM and exits 0', async () => {
    const closed: string[] = []
    let exitCode: number | undefined
    const done = new Promise<void>((resolve) => {
      const remove = onShutdown([
        { close: async () => { closed.push('app') } },
        { close: () => { closed.push('db') } }
      ], { log: () => {}, exit: (code) => { exitCode = code; resolve() } })
      onTestFinished(remove)
    })
    process.emit('SIGTERM', 'SIGTERM')
    await done
    expect(closed).toEqual(['app', 'db'])
    expect(exitCode).toBe(0)
  })

  it('exits 1 when a resource fails to close, after closing the others', async () => {
    const closed: string[] = []
    let exitCode: number | undefined
    const done = new Promise<void>((resolve) => {
      const remove = onShutdown([
        { close: async () => { throw new Error('stuck') } },
        { close: () => { closed.push('db') } }
      ], { log: () => {}, exit: (code) => { exitCode = code; resolve() } })
      onTestFinished(remove)
    })
    process.emit('SIGINT', 'SIGINT')
    await done
    expect(closed).toEqual(['db'])
    expect(exitCode).toBe(1)
  })
})

describe('loggerOptions', () => {
  it('redacts tokens, passwords and document data', () => {
    const lines: string[] = []
    const sink = new Writable({ write (chunk, _encoding, callback) { lines.push(String(chunk)); callback() } })
    const log = pino(loggerOptions({ service: 'test' }), sink)
    log.info({ req: { headers: { 'x-auth-token': 'tok-123', authorization: 'Bearer abc' } }, password: 'pw-1', secret: 's-1', data: { key: 'private-key' } }, 'hello')
    const text = lines.join('')
    for (const secret of ['tok-123', 'Bearer abc', 'pw-1', 's-1', 'private-key']) expect(text).not.toContain(secret)
    expect(JSON.parse(text)).toMatchObject({ service: 'test', msg: 'hello' })
  })

  it('redacts them deeper down and in outbound header spellings too', () => {
    const lines: string[] = []
    const sink = new Writable({ write (chunk, _encoding, callback) { lines.push(String(chunk)); callback() } })
    const log = pino(loggerOptions({ service: 'test' }), sink)
    log.info({
      a: { b: { password: 'pw-deep' } },
      doc: { x: { data: 'deep-data' } },
      call: { headers: { 'X-Auth-Token': 'tok-mixed', Authorization: 'Bearer mixed' } },
      config: { KEYSTONE_PASSWORD: 'ks-pw', ENCRYPTION_KEY: 'enc-key' },
      kept: 'visible'
    }, 'deep')
    const text = lines.join('')
    for (const secret of ['pw-deep', 'deep-data', 'tok-mixed', 'Bearer mixed', 'ks-pw', 'enc-key']) expect(text).not.toContain(secret)
    expect(text).toContain('visible')
  })
})
