// A throw-away PKI for the TLS tests: a CA and a certificate it signs for 127.0.0.1 (and localhost), made by openssl
// in a temporary folder the caller removes.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
