// The files a throw-away API server needs to trust and be trusted: a self-signed CA, a serving certificate it signs
// for 127.0.0.1 and localhost, a service-account key pair, and the static token file of the three identities.
import { execFile } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface Pki {
  caCert: string
  serverCert: string
  serverKey: string
  serviceAccountKey: string
  serviceAccountPub: string
}

async function openssl (args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd })
  } catch (error) {
    const e = error as { stderr?: string, message: string }
    throw new Error(`openssl ${args[0]} failed: ${(e.stderr ?? e.message).trim().split('\n').slice(-3).join(' | ')}`)
  }
}

/** Writes the CA, the serving certificate and the service-account keys into `dir` (P-256 keys: quick to make). */
export async function writePki (dir: string): Promise<Pki> {
  const days = '2'
  const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  await openssl(['req', '-x509', ...curve, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', days, '-subj', '/CN=slipway-test-ca'], dir)
  await openssl(['req', ...curve, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=kube-apiserver'], dir)
  writeFileSync(join(dir, 'server.ext'), [
    'basicConstraints = CA:FALSE',
    'keyUsage = digitalSignature, keyEncipherment',
    'extendedKeyUsage = serverAuth',
    'subjectAltName = IP:127.0.0.1, DNS:localhost',
    ''
  ].join('\n'))
  await openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt',
    '-days', days, '-extfile', 'server.ext'], dir)
  const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  writeFileSync(join(dir, 'sa.key'), pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
  writeFileSync(join(dir, 'sa.pub'), pair.publicKey.export({ type: 'spki', format: 'pem' }))
  return {
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    serviceAccountKey: join(dir, 'sa.key'),
    serviceAccountPub: join(dir, 'sa.pub')
  }
}

/** The three identities of the static token file. */
export interface Identities {
  /** In system:masters: may do anything. */
  admin: { user: string, token: string }
  /** The bootstrap service: RBAC lets it get and patch nodes, nothing else. */
  bootstrap: { user: string, token: string }
  /** Authenticated, with no rights at all. */
  nobody: { user: string, token: string }
}

export const BOOTSTRAP_USER = 'slipway-bootstrap'

export function newIdentities (): Identities {
  const token = (): string => randomBytes(24).toString('hex')
  return {
    admin: { user: 'slipway-admin', token: token() },
    bootstrap: { user: BOOTSTRAP_USER, token: token() },
    nobody: { user: 'slipway-nobody', token: token() }
  }
}

/** The API server's token file: token,user,uid[,"group,…"] per line. */
export function writeTokenFile (path: string, ids: Identities): void {
  const lines = [
    `${ids.admin.token},${ids.admin.user},uid-admin,"system:masters"`,
    `${ids.bootstrap.token},${ids.bootstrap.user},uid-bootstrap`,
    `${ids.nobody.token},${ids.nobody.user},uid-nobody`
  ]
  writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 })
}

/** A kubeconfig naming the server, its CA (a file beside it, by relative path) and one token, as a user writes one. */
export function writeKubeconfig (path: string, options: { server: string, caFile: string, token: string, user: string }): void {
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: slipway-test',
    '  cluster:',
    `    server: ${options.server}`,
    `    certificate-authority: ${options.caFile}`,
    'users:',
    `- name: ${options.user}`,
    '  user:',
    `    token: ${options.token}`,
    'contexts:',
    `- name: ${options.user}@slipway-test`,
    '  context:',
    '    cluster: slipway-test',
    `    user: ${options.user}`,
    `current-context: ${options.user}@slipway-test`,
    ''
  ].join('\n')
  writeFileSync(path, text, { mode: 0o600 })
}
