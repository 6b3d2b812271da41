// For the TLS tests: a throw-away PKI (a CA and a certificate it signs for 127.0.0.1 and localhost, made by openssl in
// a temporary folder the caller removes), a peer served over HTTPS with it, and a service run as its own process.
import { execFileSync, spawn } from 'node:child_process'
import type { RequestListener } from 'node:http'
import { createServer } from 'node:https'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll } from 'vitest'

export interface TestPki {
  /** The temporary folder holding every file below. */
  dir: string
  /** PEM of the CA certificate, and its file. */
  ca: string
  caFile: string
  /** The server certificate (signed by the CA) and its key, as PEM and as files. */
  cert: string
  certFile: string
  key: string
  keyFile: string
  /** Removes the folder. */
  remove: () => void
}

function openssl (dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
}

/** A new CA and a server certificate for 127.0.0.1 signed by it, valid for a day (P-256 keys: quick to make). */
export function createTestPki (): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-tls-'))
  try {
    const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
    openssl(dir, ['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Slipway test CA'])
    openssl(dir, ['req', ...key, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'])
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n')
    openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', 'server.pem', '-days', '1', '-extfile', 'server.ext'])
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  const file = (name: string): string => join(dir, name)
  return {
    dir,
    ca: readFileSync(file('ca.pem'), 'utf8'),
    caFile: file('ca.pem'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    certFile: file('server.pem'),
    key: readFileSync(file('server.key'), 'utf8'),
    keyFile: file('server.key'),
    remove: () => { rmSync(dir, { recursive: true, force: true }) }
  }
}

/** An HTTPS server on 127.0.0.1 (port 0) with the PKI's certificate, answering with `handler`. */
export async function startHttpsPeer (pki: TestPki, handler: RequestListener): Promise<{ origin: string, close: () => Promise<void> }> {
  const server = createServer({ cert: pki.cert, key: pki.key }, handler)
  await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve) })
  const port = (server.address() as { port: number }).port
  return {
    origin: `https://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

export interface ServiceRun {
  /** `http(s)://127.0.0.1:<port>` once the service listens; undefined when it exited first. */
  origin: string | undefined
  /** The exit code when it exited before listening. */
  exitCode: number | null | undefined
  /** Everything it wrote on stdout and stderr so far. */
  output: () => string
  /** SIGKILL, then waits for the process to be gone. */
  stop: () => Promise<void>
}

const LISTENING = /Server listening at (https?:\/\/127\.0\.0\.1:\d+)/

/**
 * `node <script>` on 127.0.0.1 and a free port (PORT 0) with only `env` and PATH; resolves once it says where it
 * listens, or once it has exited (a refused start). The caller stops it after the test.
 */
export async function runServiceProcess (script: string, env: Record<string, string>): Promise<ServiceRun> {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let output = ''
  const listening = new Promise<string>((resolve) => {
    const take = (chunk: Buffer): void => {
      output += chunk.toString()
      const origin = LISTENING.exec(output)?.[1]
      if (origin !== undefined) resolve(origin)
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
  })
  const first = await Promise.race([listening, exited.then((code) => ({ code }))])
  return {
    origin: typeof first === 'string' ? first : undefined,
    exitCode: typeof first === 'string' ? undefined : first.code,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGKILL')
      await exited
    }
  }
}

/** What a service serving HTTPS at `origin` answers to GET `path`: over HTTPS trusting the CA, and in plain HTTP. */
export async function askHttpsAndPlain (origin: string, path: string, pki: TestPki) {
  const agent = new Agent({ connect: { ca: pki.ca } })
  try {
    const secure = await request(`${origin}${path}`, { dispatcher: agent })
    await secure.body.dump()
    const plain = await fetch(`${origin.replace(/^https:/, 'http:')}${path}`)
    return { httpsStatus: secure.statusCode, plain: { status: plain.status, headers: plain.headers, body: await plain.json() as unknown } }
  } finally {
    await agent.close()
  }
}

/** What a service started with TLS_CERT_FILE and TLS_KEY_FILE answers to a request sent in plain HTTP on its port. */
export const PLAIN_HTTP_REFUSAL = 'This port speaks HTTPS only: the request came in plain HTTP (use https://)'

/**
 * A test file's TLS fixture: a throw-away PKI and a token file (the admin token of the tests) made before its tests and
 * removed after them. Its fields are read inside the tests.
 */
export function useTlsFixture (adminToken: string): { readonly pki: TestPki, readonly tokensFile: string } {
  const fixture = { pki: undefined as unknown as TestPki, tokensFile: '' }
  beforeAll(() => {
    fixture.pki = createTestPki()
    fixture.tokensFile = join(fixture.pki.dir, 'tokens.yaml')
    writeFileSync(fixture.tokensFile, `tokens:\n  ${adminToken}: {user: admin, roles: [admin]}\n`)
  })
  afterAll(() => { fixture.pki?.remove() })
  return fixture
}
