// Wires the store's dependencies from its configuration: the SQLite file, the secrets key, the token
// list and the policy. The one place that touches the file system.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { createPolicy, readPolicyFile, type Policy } from '@slipway/common'
import type { Config } from './config.ts'
import { openStoreDb, type StoreDb } from './db/sqlite.ts'
import { createSecretStore } from './domain/secrets.ts'
import { createStore, RULES, type Store } from './domain/store.ts'

export interface StoreAppDeps {
  store: Store
  /** Accepted tokens → roles; undefined: no authentication required. */
  tokens: Map<string, string[]> | undefined
  policy: Policy
  bodyLimitBytes: number
  logLevel: string
}

export interface Deps extends StoreAppDeps {
  db: StoreDb
}

/** Deckhand's default: every rule needs the admin role. */
export const DEFAULT_RULES: Record<string, string> = Object.fromEntries(Object.values(RULES).map((r) => [r, 'role:admin']))

/** `a,b:reader+admin` → a: [admin], b: [reader, admin]. */
export function parseTokens (text: string): Map<string, string[]> | undefined {
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e !== '')
  if (entries.length === 0) return undefined
  return new Map(entries.map((e) => {
    const colon = e.indexOf(':')
    if (colon < 0) return [e, ['admin']]
    return [e.slice(0, colon), e.slice(colon + 1).split('+').map((r) => r.trim()).filter((r) => r !== '')]
  }))
}

function secretsKey (config: Config): string {
  if (config.STORE_SECRETS_KEY !== '') return config.STORE_SECRETS_KEY
  if (config.STORE_DATA_DIR === ':memory:') return randomBytes(32).toString('hex')
  const file = join(config.STORE_DATA_DIR, 'secrets.key')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const key = randomBytes(32).toString('hex')
  writeFileSync(file, key, { mode: 0o600 })
  chmodSync(file, 0o600)
  return key
}

export function createDeps (config: Config): Deps {
  if (config.STORE_DATA_DIR !== ':memory:') mkdirSync(config.STORE_DATA_DIR, { recursive: true })
  const db = openStoreDb(config.STORE_DATA_DIR === ':memory:' ? ':memory:' : join(config.STORE_DATA_DIR, 'store.sqlite'))
  const secrets = createSecretStore(db, secretsKey(config))
  return {
    db,
    store: createStore({ db, secrets, renderCacheSize: config.STORE_RENDER_CACHE_SIZE, deckhandQuirks: config.STORE_DECKHAND_QUIRKS }),
    tokens: parseTokens(config.STORE_AUTH_TOKENS),
    policy: createPolicy(DEFAULT_RULES, config.STORE_POLICY_FILE === '' ? {} : readPolicyFile(config.STORE_POLICY_FILE)),
    bodyLimitBytes: config.STORE_BODY_LIMIT_BYTES,
    logLevel: config.LOG_LEVEL
  }
}
