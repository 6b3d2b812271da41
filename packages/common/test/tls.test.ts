// TLS: the settings read at start-up (one problem a line, naming the setting and the path), a service app serving
// HTTPS only, and the HTTP client naming the peer and the certificate error when a peer's certificate is not trusted.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { connect } from 'node:net'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { ConfigError } from '../src/config.ts'
import { readTlsSettings } from '../src/tls.ts'
import { createServiceApp } from '../src/fastify/service-app.ts'
import { healthRoutes } from '../src/fastify/routes.ts'
import { createHttpClient } from '../src/http-client.ts'
import { DownstreamError } from '../src/errors.ts'
import { createTestPki, type TestPki } from '../src/testing/tls.ts'

let pki: TestPki
beforeAll(() => { pki = createTestPki() })
afterAll(() => { pki.remove() })

const NONE = { TLS_CERT_FILE: '', TLS_KEY_FILE: '', TLS_CA_FILE: '' }

function problemsOf (settings: Partial<typeof NONE>): string[] {
  try {
    readTlsSettings({ ...NONE, ...settings })
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

/** A file in the test's PKI folder holding `text`. */
function fileOf (name: string, text: string): string {
  const path = join(pki.dir, name)
  writeFileSync(path, text)
  return path
}

/** A client that trusts the test CA (and nothing else). */
function trustingAgent (): Agent {
  const agent = new Agent({ connect: { ca: pki.ca } })
  onTestFinished(async () => { await agent.close() })
  return agent
}

interface Listener { listen: (port: number, host: string, done: () => void) => unknown, address: () => unknown, close: () => unknown }

async function listening (server: Listener): Promise<number> {
  await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve) })
  onTestFinished(() => { server.close() })
  return (server.address() as { port: number }).port
}

describe('readTlsSettings', () => {
  it('reads nothing when no setting is given: plain HTTP, Node\'s CAs only', () => {
    expect(readTlsSettings(NONE)).toEqual({ server: undefined, trustedCas: [] })
  })

  it('reads the certificate, the key and each CA of the bundle', () => {
    const bundle = fileOf('bundle.pem', `${pki.ca}\n${pki.cert}`)
    const settings = readTlsSettings({ TLS_CERT_FILE: pki.certFile, TLS_KEY_FILE: pki.keyFile, TLS_CA_FILE: bundle })
    expect(settings.server).toEqual({ cert: pki.cert, key: pki.key })
    expect(settings.trustedCas).toEqual([pki.ca.trim(), pki.cert.trim()])
  })

  it('names both settings when one is given without the other', () => {
    expect(problemsOf({ TLS_CERT_FILE: pki.certFile })).toEqual([
      'TLS_CERT_FILE, TLS_KEY_FILE: HTTPS needs both; TLS_CERT_FILE is set but TLS_KEY_FILE is not (set both, or neither for plain HTTP)'
    ])
    expect(problemsOf({ TLS_KEY_FILE: pki.keyFile })).toEqual([
      'TLS_CERT_FILE, TLS_KEY_FILE: HTTPS needs both; TLS_KEY_FILE is set but TLS_CERT_FILE is not (set both, or neither for plain HTTP)'
    ])
  })

  it('names the setting and the path of every file missing, unreadable or a folder, all at once', () => {
    const missing = join(pki.dir, 'nowhere.pem')
    const locked = fileOf('locked.pem', pki.key)
    chmodSync(locked, 0o000)
    const folder = join(pki.dir, 'folder')
    mkdirSync(folder, { recursive: true })
    const problems = problemsOf({ TLS_CERT_FILE: missing, TLS_KEY_FILE: locked, TLS_CA_FILE: folder })
    // root reads any file whatever its mode: then the key is read, and only the other two are refused
    const lockedLine = process.getuid?.() === 0 ? [] : [`TLS_KEY_FILE: ${locked} cannot be read by this process (permission denied)`]
    expect(problems).toEqual([
      `TLS_CERT_FILE: ${missing} does not exist`,
      ...lockedLine,
      `TLS_CA_FILE: ${folder} is a folder, not a file`
    ])
  })

  it('refuses files that hold no certificate or key, a damaged certificate, and a key that is not the certificate\'s', () => {
    const text = fileOf('text.pem', 'hello\n')
    expect(problemsOf({ TLS_CERT_FILE: text, TLS_KEY_FILE: text, TLS_CA_FILE: text })).toEqual([
      `TLS_CERT_FILE: ${text} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      expect.stringMatching(new RegExp(`^TLS_KEY_FILE: ${text} holds no usable PEM private key \\(.+\\)$`)),
      `TLS_CA_FILE: ${text} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`
    ])
    const damaged = fileOf('damaged.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')
    expect(problemsOf({ TLS_CA_FILE: damaged })).toEqual([expect.stringMatching(new RegExp(`^TLS_CA_FILE: certificate 1 of ${damaged} cannot be read \\(.+\\)$`))])
    // the CA's own key is a good key, but not the server certificate's
    const otherKey = join(pki.dir, 'ca.key')
    expect(problemsOf({ TLS_CERT_FILE: pki.certFile, TLS_KEY_FILE: otherKey })).toEqual([
      expect.stringMatching(new RegExp(`^TLS_CERT_FILE, TLS_KEY_FILE: the key in ${otherKey} does not go with the certificate in ${pki.certFile} \\(.+\\)$`))
    ])
  })
})

describe('a service app given a certificate and key', () => {
  async function httpsApp (): Promise<number> {
    const app = createServiceApp({ service: 'test', logger: false, https: { cert: pki.cert, key: pki.key } })
    await app.register(healthRoutes, { prefix: '/api/v1.0' })
    onTestFinished(async () => { await app.close() })
    await app.listen({ host: '127.0.0.1', port: 0 })
    return (app.server.address() as { port: number }).port
  }

  it('answers over HTTPS a client that trusts the CA', async () => {
    const port = await httpsApp()
    const res = await request(`https://127.0.0.1:${port}/api/v1.0/health`, { dispatcher: trustingAgent() })
    expect(res.statusCode).toBe(204)
    await res.body.dump()
  })

  it('is refused by a client that does not trust the CA', async () => {
    const port = await httpsApp()
    const plainAgent = new Agent()
    onTestFinished(async () => { await plainAgent.close() })
    const error = await request(`https://127.0.0.1:${port}/api/v1.0/health`, { dispatcher: plainAgent }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' })
  })

  it('answers a plain HTTP request with 400 saying the port speaks HTTPS, then closes the connection', async () => {
    const port = await httpsApp()
    const socket = connect(port, '127.0.0.1')
    socket.write('GET /api/v1.0/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    let answer = ''
    socket.on('data', (chunk: Buffer) => { answer += chunk.toString() })
    await new Promise((resolve) => socket.once('close', resolve))
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
    expect(head).toMatch(/\r\nx-service-req: [0-9a-f-]{36}\r\n/)
    expect(JSON.parse(body)).toMatchObject({
      status: 'Failure',
      code: '400 Bad Request',
      message: 'Bad Request',
      details: { messageList: [{ message: 'This port speaks HTTPS only: the request came in plain HTTP (use https://)', error: true }] }
    })
  })
})

describe('createHttpClient calling an HTTPS peer', () => {
  async function httpsPeer (): Promise<string> {
    const server = createHttpsServer({ cert: pki.cert, key: pki.key }, (_req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}') })
    return `https://127.0.0.1:${await listening(server)}`
  }

  it('reads the answer when its client trusts the peer\'s CA', async () => {
    const http = createHttpClient({ component: 'store', baseUrl: await httpsPeer(), timeoutMs: 5000, dispatcher: trustingAgent() })
    expect(await http.getJson('/x')).toEqual({ ok: true })
  })

  it('throws a 502 naming the peer and the certificate error when the CA is not trusted', async () => {
    const agent = new Agent()
    onTestFinished(async () => { await agent.close() })
    const http = createHttpClient({ component: 'store', baseUrl: await httpsPeer(), timeoutMs: 5000, dispatcher: agent })
    const error = await http.getJson('/x').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DownstreamError)
    expect(error).toMatchObject({
      statusCode: 502,
      component: 'store',
      reason: 'The certificate of the store is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate); TLS_CA_FILE names the CAs trusted beyond the default ones'
    })
  })

  it('throws a 502 saying the TLS handshake failed when an https:// URL names a plain HTTP port', async () => {
    const server = createHttpServer((_req, res) => { res.end('plain') })
    const http = createHttpClient({ component: 'engine', baseUrl: `https://127.0.0.1:${await listening(server)}`, timeoutMs: 5000 })
    const error = await http.getJson('/x').catch((e: unknown) => e)
    expect(error).toMatchObject({
      statusCode: 502,
      component: 'engine',
      reason: expect.stringMatching(/^The engine could not be reached over TLS \(ERR_SSL_[A-Z_]+\); does its URL name an HTTPS port\?$/)
    })
  })
})
