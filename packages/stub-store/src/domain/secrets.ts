// The secret store standing in for Barbican: payloads of encrypted documents, AES-256-GCM
// encrypted at rest, addressed by an opaque reference that the document's stored data holds.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
import type { StoreDb } from '../db/sqlite.ts'
import { StoreError } from '../errors.ts'
import { decodeValue, encodeValue, hasSpecial } from './values.ts'

const REF_PREFIX = 'stub-store://secrets/'

export function isSecretRef (value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(REF_PREFIX)
}

export function createSecretStore (db: StoreDb, keyMaterial: string) {
  const key = createHash('sha256').update(keyMaterial).digest()

  /** A keyed fingerprint: recognises an unchanged payload without storing a plain hash of the secret. */
  const fingerprint = (encoded: string): string => createHmac('sha256', key).update(encoded).digest('hex')

  function encodePayload (value: unknown): string {
    const special = hasSpecial(value)
    return `${special ? '1' : '0'}${encodeValue(value, special)}`
  }

  /** Stores a payload and returns its reference; `reuse` is kept when it already holds this payload. */
  function put (value: unknown, reuse?: string): string {
    const encoded = encodePayload(value)
    const fp = fingerprint(encoded)
    if (reuse !== undefined) {
      const existing = db.getSecret(reuse)
      if (existing !== undefined && existing.fingerprint === fp) return reuse
    }
    const ref = REF_PREFIX + randomUUID()
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    const body = Buffer.concat([cipher.update(encoded, 'utf8'), cipher.final()])
    db.insertSecret({ ref, payload: Buffer.concat([iv, cipher.getAuthTag(), body]), fingerprint: fp })
    return ref
  }

  function get (ref: string): unknown {
    const row = db.getSecret(ref)
    if (row === undefined) {
      throw new StoreError(500, 'BarbicanServerException',
        `The secret ${ref} could not be retrieved from the secret store.`)
    }
    const blob = Buffer.from(row.payload)
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12))
      decipher.setAuthTag(blob.subarray(12, 28))
      const text = Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('utf8')
      return decodeValue(text.slice(1), text[0] === '1')
    } catch {
      throw new StoreError(500, 'BarbicanServerException', `The secret ${ref} could not be decrypted; was STORE_SECRETS_KEY changed?`)
    }
  }

  return { put, get }
}

export type SecretStore = ReturnType<typeof createSecretStore>
