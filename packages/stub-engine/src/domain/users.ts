// The simple auth manager's users (ENGINE_USERS) and what their roles may do.
import { timingSafeEqual } from 'node:crypto'

export const ROLES = ['ADMIN', 'OP', 'USER', 'VIEWER'] as const
export type Role = typeof ROLES[number]

export interface User { username: string, password: string, role: Role }

/** Parses `user:password[:role]` pairs; throws on a malformed entry so the mistake shows at start. */
export function parseUsers (spec: string): User[] {
  return spec.split(',').map((s) => s.trim()).filter((s) => s !== '').map((entry) => {
    const [username, password, role = 'ADMIN', extra] = entry.split(':')
    const upper = role.toUpperCase()
    if (username === undefined || username === '' || password === undefined || password === '' ||
      extra !== undefined || !(ROLES as readonly string[]).includes(upper)) {
      throw new Error(`ENGINE_USERS: cannot read "${entry}" (expected user:password[:${ROLES.join('|')}])`)
    }
    return { username, password, role: upper as Role }
  })
}

function same (a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export function findUser (users: User[], username: string, password: string): User | undefined {
  return users.find((u) => u.username === username && same(u.password, password))
}

/** VIEWER reads only; every other role may also change DAGs, runs and task instances. */
export const mayWrite = (role: string): boolean => role !== 'VIEWER'
