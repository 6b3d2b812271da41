// TLS of a service: the certificate and key it serves HTTPS with, and the CAs its outbound calls trust beyond Node's
// own. Both are read once at start-up; a file that is missing or holds the wrong thing stops the start, naming the
// setting and the path.
import { readFileSync } from 'node:fs'
import type { Server } from 'node:net'
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { createSecureContext, getCACertificates, setDefaultCACertificates } from 'node:tls'
import { Type } from 'typebox'
import { ConfigError } from './config.ts'

/** Spread into a service's ConfigSchema: `Type.Object({ ...TlsConfigProperties, PORT: … })`. */
export const TlsConfigProperties = {
  TLS_CERT_FILE: Type.String({
    default: '',
    description: 'PEM certificate (the server\'s first, then any intermediates) this service serves HTTPS with; set with TLS_KEY_FILE, the service speaks HTTPS only, on HOST and PORT. Both empty: plain HTTP'
  }),
  TLS_KEY_FILE: Type.String({ default: '', description: 'PEM private key of TLS_CERT_FILE (not encrypted)' }),
  TLS_CA_FILE: Type.String({
    default: '',
    description: 'PEM bundle of CAs trusted for this service\'s outbound HTTPS calls (every peer and Keystone), in addition to Node\'s default CAs; empty: Node\'s default CAs only'
  })
}

export interface TlsConfig { TLS_CERT_FILE: string, TLS_KEY_FILE: string, TLS_CA_FILE: string }

/** What a service serves HTTPS with (Fastify's `https` option). */
export interface ServerTls { cert: string, key: string }

export interface TlsSettings {
  /** Absent: the service serves plain HTTP. */
  server: ServerTls | undefined
  /** The PEM certificates of TLS_CA_FILE, one each; empty when it is not set. */
  trustedCas: string[]
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

function firstLine (error: unknown): string {
  const e = error as { reason?: string, message?: string }
  return (e.reason ?? e.message ?? String(error)).split('\n')[0] ?? ''
}

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'cannot be read by this process (permission denied)',
  EISDIR: 'is a folder, not a file'
}

/** A setting's file as text, or a problem naming the setting and the path. */
function readSetting (name: string, path: string, problems: string[]): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    problems.push(`${name}: ${path} ${READ_FAILURES[code ?? ''] ?? `cannot be read (${code ?? firstLine(error)})`}`)
    return undefined
  }
}

/** The PEM certificates of a file, each checked; a problem naming the setting when there are none or one is bad. */
function certificatesOf (name: string, path: string, text: string, problems: string[]): string[] {
  const blocks = text.match(PEM_CERTIFICATE) ?? []
  if (blocks.length === 0) {
    problems.push(`${name}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`)
    return []
  }
  for (const [index, block] of blocks.entries()) {
    try {
      // eslint-disable-next-line no-new -- parsed only to refuse a damaged certificate at start-up
      new X509Certificate(block)
    } catch (error) {
      problems.push(`${name}: certificate ${index + 1} of ${path} cannot be read (${firstLine(error)})`)
      return []
    }
  }
  return blocks
}

function serverTlsOf (config: TlsConfig, problems: string[]): ServerTls | undefined {
  const certPath = config.TLS_CERT_FILE
  const keyPath = config.TLS_KEY_FILE
  if (certPath === '' && keyPath === '') return undefined
  if (certPath === '' || keyPath === '') {
    const [given, missing] = certPath === '' ? ['TLS_KEY_FILE', 'TLS_CERT_FILE'] : ['TLS_CERT_FILE', 'TLS_KEY_FILE']
    problems.push(`TLS_CERT_FILE, TLS_KEY_FILE: HTTPS needs both; ${given} is set but ${missing} is not (set both, or neither for plain HTTP)`)
    return undefined
  }
  const before = problems.length
  const cert = readSetting('TLS_CERT_FILE', certPath, problems)
  const key = readSetting('TLS_KEY_FILE', keyPath, problems)
  if (cert !== undefined) certificatesOf('TLS_CERT_FILE', certPath, cert, problems)
  if (key !== undefined) {
    try {
      createPrivateKey(key)
    } catch (error) {
      problems.push(`TLS_KEY_FILE: ${keyPath} holds no usable PEM private key (${firstLine(error)})`)
    }
  }
  if (cert === undefined || key === undefined || problems.length > before) return undefined
  try {
    createSecureContext({ cert, key })
  } catch (error) {
    problems.push(`TLS_CERT_FILE, TLS_KEY_FILE: the key in ${keyPath} does not go with the certificate in ${certPath} (${firstLine(error)})`)
    return undefined
  }
  return { cert, key }
}

/**
 * Reads TLS_CERT_FILE, TLS_KEY_FILE and TLS_CA_FILE. Throws one ConfigError naming every problem: one of the pair
 * without the other, a file missing or unreadable (setting and path), no certificate or key in it, a key that is not
 * the certificate's.
 */
export function readTlsSettings (config: TlsConfig): TlsSettings {
  const problems: string[] = []
  const server = serverTlsOf(config, problems)
  let trustedCas: string[] = []
  if (config.TLS_CA_FILE !== '') {
    const text = readSetting('TLS_CA_FILE', config.TLS_CA_FILE, problems)
    if (text !== undefined) trustedCas = certificatesOf('TLS_CA_FILE', config.TLS_CA_FILE, text, problems)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return { server, trustedCas }
}

/**
 * Adds `cas` to the CAs every TLS client of this process trusts when it names none of its own: the clients of the
 * store, the engine, the provisioner, the validators, note URLs, Keystone and a Kubernetes API reached without a
 * kubeconfig CA all connect through Node's default CA list, so one call at start-up reaches them all, as
 * NODE_EXTRA_CA_CERTS would but from a setting of the service. Process-wide: only a server's start calls it.
 */
export function trustOutboundCas (cas: string[]): void {
  if (cas.length === 0) return
  // Node 24.5 and later; the services run on Node 24
  if (typeof setDefaultCACertificates !== 'function') {
    throw new ConfigError([`TLS_CA_FILE: needs Node 24.5 or later (this is ${process.version})`])
  }
  setDefaultCACertificates([...getCACertificates('default'), ...cas])
}

/** A TLS socket and, in Node's `_parent`, the plain connection it was made on. */
interface TlsSocketUnder { _parent?: NodeJS.WritableStream & { writable?: boolean }, destroy: () => void }

/**
 * On an HTTPS server, answers a request sent in plain HTTP with `answer()` (a whole HTTP/1.1 answer) before closing,
 * rather than dropping the connection without a word. OpenSSL knows such a request by its first bytes (`GET `,
 * `POST `, ...); other bytes that are not TLS are dropped as Node drops them.
 */
export function answerPlainHttp (server: Server, answer: () => string): void {
  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: TlsSocketUnder) => {
    // the TLS socket cannot carry plain text: the answer goes on the connection under it
    const raw = socket._parent
    if (error.code === 'ERR_SSL_HTTP_REQUEST' && raw?.writable === true) raw.end(answer())
    else socket.destroy()
  })
}
