import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { PolicyError, createPolicy, parseRule, readPolicyFile, type Credentials } from '../src/auth/policy.ts'

const admin: Credentials = { roles: ['admin'], user_id: 'u1', project_id: 'p1' }
const reader: Credentials = { roles: ['reader'], user_id: 'u2', project_id: 'p2' }
const nobody: Credentials = { roles: [] }
const noRules = (): undefined => undefined

describe('policy rule language', () => {
  const allows = (rule: string, creds: Credentials, target = {}): boolean => parseRule(rule)(creds, target, noRules)

  it('role: matches a role case-insensitively', () => {
    expect(allows('role:admin', admin)).toBe(true)
    expect(allows('role:ADMIN', admin)).toBe(true)
    expect(allows('role:admin', reader)).toBe(false)
  })
  it('@ always allows, ! never does, the empty rule allows', () => {
    expect(allows('@', nobody)).toBe(true)
    expect(allows('!', admin)).toBe(false)
    expect(allows('', nobody)).toBe(true)
  })
  it('and, or, not with the usual precedence', () => {
    expect(allows('role:admin or role:reader', reader)).toBe(true)
    expect(allows('role:admin and role:reader', reader)).toBe(false)
    expect(allows('not role:admin', reader)).toBe(true)
    expect(allows('not role:admin', admin)).toBe(false)
    // and binds tighter than or
    expect(allows('role:reader or role:admin and !', reader)).toBe(true)
    expect(allows('role:admin or role:x and @', reader)).toBe(false)
  })
  it('parentheses group, also without spaces', () => {
    expect(allows('(role:reader or role:admin) and !', reader)).toBe(false)
    expect(allows('not(role:admin)', reader)).toBe(true)
    expect(allows('role:reader and (role:x or (@))', reader)).toBe(true)
  })
  it('generic checks compare credentials with target attributes or literals', () => {
    expect(allows('project_id:%(project_id)s', admin, { project_id: 'p1' })).toBe(true)
    expect(allows('project_id:%(project_id)s', admin, { project_id: 'p2' })).toBe(false)
    expect(allows('user_id:u2', reader)).toBe(true)
    expect(allows('is_admin:1', admin)).toBe(false)
  })
  it('rejects malformed rules', () => {
    for (const bad of ['(role:admin', 'role:admin)', 'role:admin and', 'nonsense', 'role:a or or role:b']) {
      expect(() => parseRule(bad), bad).toThrow(PolicyError)
    }
  })
})

describe('createPolicy', () => {
  const defaults = {
    admin_required: 'role:admin',
    'svc:read': 'rule:admin_required or role:reader',
    'svc:write': 'rule:admin_required',
    'svc:never': 'rule:deny_all'
  }
  it('resolves rule: references and treats an unknown referenced rule as a denial', () => {
    const policy = createPolicy(defaults)
    expect(policy.allows('svc:read', reader)).toBe(true)
    expect(policy.allows('svc:write', reader)).toBe(false)
    expect(policy.allows('svc:write', admin)).toBe(true)
    expect(policy.allows('svc:never', admin)).toBe(false)
  })
  it('throws for a rule that was never registered', () => {
    expect(() => createPolicy(defaults).allows('svc:unknown', admin)).toThrow(PolicyError)
  })
  it('lets a policy file override defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'policy.yaml')
    writeFileSync(file, "'svc:write': 'role:reader'\n")
    const policy = createPolicy(defaults, readPolicyFile(file))
    expect(policy.allows('svc:write', reader)).toBe(true)
    expect(policy.allows('svc:write', admin)).toBe(false)
    expect(policy.rules()['svc:write']).toBe('role:reader')
  })
  it('rejects a policy file that is not a mapping of strings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'policy.yaml')
    writeFileSync(file, '- role:admin\n')
    expect(() => readPolicyFile(file)).toThrow(PolicyError)
    writeFileSync(file, 'rule: [1, 2]\n')
    expect(() => readPolicyFile(file)).toThrow(PolicyError)
  })
})
