// A service's start-up failures: the operator's problems (bad variables, a busy port, an address that is not this
// machine's) are one line each naming the variable, exit 2; anything else is thrown on as a crash.
import { createServer } from 'node:net'
import { Type } from 'typebox'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { ConfigError, LogLevelSchema, readConfig } from '../src/config.ts'
import { runService, startupProblems } from '../src/startup.ts'
import { authStartupWarnings, AuthConfigSchema } from '../src/auth/from-config.ts'
import { createStaticAuthenticator } from '../src/auth/static.ts'

async function busyPort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => { server.close() })
  return (server.address() as { port: number }).port
}

async function listenError (port: number, host = '127.0.0.1'): Promise<unknown> {
  const server = createServer()
  return await new Promise((resolve) => {
    server.once('error', resolve)
    server.listen(port, host, () => { server.close(); resolve(undefined) })
  })
}

describe('startupProblems', () => {
  it('names PORT, with the address, when the port is in use', async () => {
    const port = await busyPort()
    expect(startupProblems(await listenError(port))).toEqual([`PORT: 127.0.0.1:${port} is in use by another process (set PORT, or stop that process)`])
  })

  it('names HOST when the address is not this machine\'s', async () => {
    expect(startupProblems(await listenError(0, '192.0.2.1'))).toEqual(['HOST: 192.0.2.1 is not an address of this machine'])
  })

  it('gives a ConfigError\'s problems as they are, and nothing for any other error', () => {
    expect(startupProblems(new ConfigError(['A: bad', 'B: worse']))).toEqual(['A: bad', 'B: worse'])
    expect(startupProblems(new TypeError('boom'))).toBeUndefined()
  })
})

describe('runService', () => {
  it('prints one line per problem prefixed by the service, and exits 2', async () => {
    const written: string[] = []
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { written.push(String(chunk)); return true })
    onTestFinished(() => { write.mockRestore() })
    const exit = vi.fn()
    await runService('svc', async () => { throw new ConfigError(['PORT: must be integer (got "abc")', 'LOG_LEVEL: must be one of info (got "loud")']) }, exit)
    expect(written.join('')).toBe('svc: PORT: must be integer (got "abc")\nsvc: LOG_LEVEL: must be one of info (got "loud")\n')
    expect(exit).toHaveBeenCalledWith(2)
  })

  it('throws anything else on, without exiting', async () => {
    const exit = vi.fn()
    await expect(runService('svc', async () => { throw new TypeError('boom') }, exit)).rejects.toThrow('boom')
    expect(exit).not.toHaveBeenCalled()
  })
})

describe('configuration errors', () => {
  const Schema = Type.Object({
    PORT: Type.Integer({ default: 9000 }),
    LOG_LEVEL: LogLevelSchema(),
    DATABASE_URL: Type.String({ default: '', pattern: '^(postgres://.+)?$', examples: ['postgres://user:password@host/db'] }),
    ENGINE_PASSWORD: Type.Integer({ default: 1 }),
    TIMEOUT_MS: Type.Integer({ default: 1, minimum: 1 })
  })

  it('names every bad variable, not only the first one', () => {
    expect(() => readConfig(Schema, { PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'nonsense', TIMEOUT_MS: '0' })).toThrow(new ConfigError([
      'PORT: must be integer (got "abc")',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'DATABASE_URL: must look like postgres://user:password@host/db (got "nonsense")',
      'TIMEOUT_MS: must be >= 1 (got "0")'
    ]))
  })

  it('is one line per problem, without a header', () => {
    expect(new ConfigError(['A: bad', 'B: worse']).message).toBe('A: bad\nB: worse')
  })

  it('never echoes a secret: a password variable is hidden, a URL\'s password masked', () => {
    expect(() => readConfig(Schema, { ENGINE_PASSWORD: 'hunter2' })).toThrow('ENGINE_PASSWORD: must be integer (got (hidden))')
    let message = ''
    try { readConfig(Schema, { DATABASE_URL: 'postgresql://u:hunter2@db/x' }) } catch (error) { message = (error as Error).message }
    expect(message).toContain('postgresql://u:***@db/x')
    expect(message).not.toContain('hunter2')
  })

  it('accepts every pino level for LOG_LEVEL, info by default', () => {
    expect(readConfig(Schema, {}).LOG_LEVEL).toBe('info')
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) expect(readConfig(Schema, { LOG_LEVEL: level }).LOG_LEVEL).toBe(level)
  })
})

describe('identity at start-up', () => {
  it('warns when the static provider has no token file, and not otherwise', () => {
    const config = readConfig(AuthConfigSchema, {})
    expect(authStartupWarnings(config)).toEqual([expect.stringContaining('AUTH_TOKENS_FILE is not set')])
    expect(authStartupWarnings({ ...config, AUTH_TOKENS_FILE: '/tokens.yaml' })).toEqual([])
    expect(authStartupWarnings({ ...config, AUTH_PROVIDER: 'keystone' })).toEqual([])
  })

  it('challenges without naming an identity service when AUTH_URI is not set', () => {
    expect(readConfig(AuthConfigSchema, {}).AUTH_URI).toBe('')
    expect(createStaticAuthenticator({ tokens: {}, authUri: '' }).wwwAuthenticate).toBe('X-Auth-Token realm="slipway"')
    expect(createStaticAuthenticator({ tokens: {}, authUri: 'http://id/v3' }).wwwAuthenticate).toBe('Keystone uri="http://id/v3"')
  })
})
