// Policy rules in the oslo.policy language: `role:x`, `rule:name`, generic `key:value` checks,
// `and`, `or`, `not`, parentheses, `@` (always) and `!` (never); defaults overridable by a YAML file.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'

/** Who is asking: what the identity service said about the caller's token. */
export interface Credentials {
  user_id?: string | null
  user_domain_id?: string | null
  project_id?: string | null
  project_domain_id?: string | null
  roles: string[]
  is_admin_project?: boolean
  [key: string]: unknown
}

/** What is asked for: attributes of the target, referenced by `%(name)s` in generic checks. */
export type Target = Record<string, unknown>

/** A rule that cannot be parsed or names no registered rule: a configuration error, not a denial. */
export class PolicyError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'PolicyError'
  }
}

type Check = (creds: Credentials, target: Target, rules: RuleLookup) => boolean
type RuleLookup = (name: string) => Check | undefined

/** Splits a rule into words and parentheses; `not(`, `(role:a` and friends split apart. */
function tokenize (text: string): string[] {
  const tokens: string[] = []
  // a `%(name)s` substitution keeps its parentheses; any other parenthesis is a token of its own
  for (const match of text.matchAll(/%\([^)\s]*\)s|[()]|[^\s()%]+|%/g)) {
    const piece = match[0]
    const last = tokens.length - 1
    const glued = match.index > 0 && !/[\s()]/.test(text[match.index - 1] ?? ' ') && piece !== '(' && piece !== ')'
    if (glued && last >= 0 && tokens[last] !== '(' && tokens[last] !== ')') tokens[last] += piece
    else tokens.push(piece)
  }
  return tokens
}

function lookupPath (source: Record<string, unknown>, path: string): unknown {
  let current: unknown = source
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

function atom (word: string): Check {
  if (word === '@') return () => true
  if (word === '!') return () => false
  const colon = word.indexOf(':')
  if (colon <= 0) throw new PolicyError(`Cannot parse policy check '${word}'`)
  const kind = word.slice(0, colon)
  const match = word.slice(colon + 1)
  if (kind === 'role') {
    const wanted = match.toLowerCase()
    return (creds) => creds.roles.some((role) => role.toLowerCase() === wanted)
  }
  if (kind === 'rule') {
    return (creds, target, rules) => {
      const rule = rules(match)
      return rule === undefined ? false : rule(creds, target, rules)
    }
  }
  // generic check: the credential `kind` must equal a target attribute `%(name)s` or a literal
  const substitution = /^%\((.+)\)s$/.exec(match)
  return (creds, target) => {
    const actual = lookupPath(creds, kind)
    const expected: unknown = substitution === null ? match : lookupPath(target, substitution[1] ?? '')
    if (actual === undefined || actual === null || expected === undefined || expected === null) return false
    if (Array.isArray(actual)) return actual.map(String).includes(String(expected))
    if (typeof actual === 'boolean') return String(actual).toLowerCase() === String(expected).toLowerCase() || (actual && expected === '1')
    return String(actual) === String(expected)
  }
}

/**
 * Parses one rule text into a check. Grammar: or-expr := and-expr ('or' and-expr)*; and-expr := unary ('and' unary)*;
 * unary := 'not' unary | '(' or-expr ')' | atom.
 */
export function parseRule (text: string): Check {
  const tokens = tokenize(text)
  if (tokens.length === 0) return () => true // an empty rule allows everyone, as in oslo.policy
  let position = 0
  const peek = (): string | undefined => tokens[position]
  const next = (): string => {
    const token = tokens[position++]
    if (token === undefined) throw new PolicyError(`Unexpected end of policy rule '${text}'`)
    return token
  }
  function orExpr (): Check {
    const parts = [andExpr()]
    while (peek()?.toLowerCase() === 'or') { position++; parts.push(andExpr()) }
    return parts.length === 1 ? parts[0] as Check : (c, t, r) => parts.some((p) => p(c, t, r))
  }
  function andExpr (): Check {
    const parts = [unary()]
    while (peek()?.toLowerCase() === 'and') { position++; parts.push(unary()) }
    return parts.length === 1 ? parts[0] as Check : (c, t, r) => parts.every((p) => p(c, t, r))
  }
  function unary (): Check {
    const token = next()
    if (token.toLowerCase() === 'not') {
      const inner = unary()
      return (c, t, r) => !inner(c, t, r)
    }
    if (token === '(') {
      const inner = orExpr()
      if (next() !== ')') throw new PolicyError(`Missing ')' in policy rule '${text}'`)
      return inner
    }
    if (token === ')') throw new PolicyError(`Unexpected ')' in policy rule '${text}'`)
    return atom(token)
  }
  const check = orExpr()
  if (position !== tokens.length) throw new PolicyError(`Unexpected '${tokens[position] ?? ''}' in policy rule '${text}'`)
  return check
}

/** Reads a policy file (YAML or JSON: rule name → rule text). */
export function readPolicyFile (path: string): Record<string, string> {
  const parsed: unknown = parseYaml(readFileSync(path, 'utf8'), { maxAliasCount: 100 })
  if (parsed === null || parsed === undefined) return {}
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PolicyError(`Policy file ${path} is not a mapping of rule names to rules`)
  }
  const rules: Record<string, string> = {}
  for (const [name, rule] of Object.entries(parsed)) {
    if (typeof rule !== 'string') throw new PolicyError(`Policy rule ${name} in ${path} is not a string`)
    rules[name] = rule
  }
  return rules
}

export interface Policy {
  /** True when `rule` allows `creds` on `target`. Throws PolicyError for an unregistered rule. */
  allows: (rule: string, creds: Credentials, target?: Target) => boolean
  /** Every registered rule name with its effective text. */
  rules: () => Record<string, string>
}

/** A policy from defaults (code) overridden by `overrides` (a policy file); every rule is parsed up front. */
export function createPolicy (defaults: Record<string, string>, overrides: Record<string, string> = {}): Policy {
  const texts = { ...defaults, ...overrides }
  const checks = new Map<string, Check>()
  for (const [name, text] of Object.entries(texts)) checks.set(name, parseRule(text))
  const lookup: RuleLookup = (name) => checks.get(name)
  return {
    allows (rule, creds, target = {}) {
      const check = checks.get(rule)
      if (check === undefined) throw new PolicyError(`Policy rule ${rule} is not registered`)
      return check(creds, target, lookup)
    },
    rules: () => ({ ...texts })
  }
}
