// Signed tokens: HS256 JWT access tokens (simple auth manager) and signed log continuation tokens.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'

const b64 = (value: string | Buffer): string => Buffer.from(value).toString('base64url')
const sign = (secret: string, data: string): string => createHmac('sha256', secret).update(data).digest('base64url')

function sameSignature (a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export interface AccessClaims { sub: string, role: string, iat: number, nbf: number, exp: number, jti: string, aud: string }

export function signJwt (secret: string, subject: string, role: string, ttlS: number, nowMs = Date.now()): string {
  const iat = Math.floor(nowMs / 1000)
  const claims: AccessClaims = { sub: subject, role, iat, nbf: iat, exp: iat + ttlS, jti: randomUUID(), aud: 'apache-airflow' }
  const head = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(JSON.stringify(claims))}`
  return `${head}.${sign(secret, head)}`
}

/**
 * What a bearer token is worth, as Airflow 3.1's JWT validator judges it: the claims of a good token; `expired` for
 * a token this server signed whose `exp` has passed; `invalid` for anything else (bad shape, another secret).
 */
export type JwtCheck = { claims: AccessClaims } | { problem: 'expired' | 'invalid' }

export function checkJwt (secret: string, token: string, nowMs = Date.now()): JwtCheck {
  const invalid: JwtCheck = { problem: 'invalid' }
  const parts = token.split('.')
  if (parts.length !== 3) return invalid
  const [header, payload, signature] = parts as [string, string, string]
  if (!sameSignature(sign(secret, `${header}.${payload}`), signature)) return invalid
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }
    if (head.alg !== 'HS256') return invalid
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<AccessClaims>
    if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string') return invalid
    if (claims.exp * 1000 <= nowMs) return { problem: 'expired' }
    return { claims: claims as AccessClaims }
  } catch {
    return invalid
  }
}

/** The claims of a valid, unexpired token; null for anything else. */
export function verifyJwt (secret: string, token: string, nowMs = Date.now()): AccessClaims | null {
  const checked = checkJwt(secret, token, nowMs)
  return 'claims' in checked ? checked.claims : null
}

/**
 * A continuation token: the position reached in one try's log, signed so that foreign tokens are refused. `tiId` names
 * the instance by DAG, run, task and map index (its id changes with every try, a try's log stays where it is).
 */
export function signLogToken (secret: string, position: { tiId: string, tryNumber: number, offset: number }): string {
  const body = b64(JSON.stringify(position))
  return `${body}.${sign(secret, `log:${body}`)}`
}

export function readLogToken (secret: string, token: string): { tiId: string, tryNumber: number, offset: number } | null {
  const [body, signature, extra] = token.split('.')
  if (body === undefined || signature === undefined || extra !== undefined) return null
  if (!sameSignature(sign(secret, `log:${body}`), signature)) return null
  try {
    const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { tiId?: unknown, tryNumber?: unknown, offset?: unknown }
    if (typeof value.tiId !== 'string' || typeof value.tryNumber !== 'number' || typeof value.offset !== 'number') return null
    return { tiId: value.tiId, tryNumber: value.tryNumber, offset: value.offset }
  } catch {
    return null
  }
}
