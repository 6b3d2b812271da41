// Kubernetes label selectors (equality and set-based: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`,
// `!a`, `a>1`, `a<1`; comma = and) and field selectors (`f=v`, `f==v`, `f!=v`), parsed the way the API server
// parses them (k8s.io/apimachinery pkg/labels and pkg/fields) so that what it refuses is refused here too.
import { BadListOptionsError } from '../errors.ts'
import { labelKeyProblem, labelValueProblem } from './labels.ts'

export type LabelTest = (labels: Record<string, string>) => boolean
export type FieldTest = (fields: Record<string, string>) => boolean

type Token =
  | { kind: 'identifier', text: string }
  | { kind: 'operator', text: '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',' }
  | { kind: 'end', text: 'end of string' }

const OPERATORS = ['==', '!=', '=', '!', '>', '<', '(', ')', ','] as const
const SPECIAL = new Set(['=', '!', '>', '<', '(', ')', ','])

function tokenize (selector: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < selector.length) {
    const char = selector[i] ?? ''
    if (/\s/.test(char)) {
      i += 1
      continue
    }
    const operator = OPERATORS.find((op) => selector.startsWith(op, i))
    if (operator !== undefined) {
      tokens.push({ kind: 'operator', text: operator })
      i += operator.length
      continue
    }
    let end = i
    while (end < selector.length && !SPECIAL.has(selector[end] ?? '') && !/\s/.test(selector[end] ?? '')) end += 1
    tokens.push({ kind: 'identifier', text: selector.slice(i, end) })
    i = end
  }
  tokens.push({ kind: 'end', text: 'end of string' })
  return tokens
}

type SetOperator = 'in' | 'notin' | '=' | '!=' | '>' | '<' | 'exists' | '!exists'

function parseFailure (why: string): BadListOptionsError {
  return new BadListOptionsError(`unable to parse requirement: ${why}`)
}

function requirementTest (key: string, operator: SetOperator, values: string[]): LabelTest {
  const keyProblem = labelKeyProblem(key)
  if (keyProblem !== undefined) throw parseFailure(`key ${JSON.stringify(key)}: ${keyProblem}`)
  if ((operator === 'in' || operator === 'notin') && values.length === 0) {
    throw parseFailure("for 'in', 'notin' operators, values set can't be empty")
  }
  if (operator === '>' || operator === '<') {
    const bound = values[0] ?? ''
    if (!/^[-+]?\d+$/.test(bound)) throw parseFailure(`for 'Gt', 'Lt' operators, the value must be an integer: ${JSON.stringify(bound)}`)
    const limit = Number(bound)
    return (labels) => {
      const value = labels[key]
      if (!Object.hasOwn(labels, key) || value === undefined || !/^[-+]?\d+$/.test(value)) return false
      return operator === '>' ? Number(value) > limit : Number(value) < limit
    }
  }
  for (const value of values) {
    const valueProblem = labelValueProblem(value)
    if (valueProblem !== undefined) throw parseFailure(`value ${JSON.stringify(value)} of ${JSON.stringify(key)}: ${valueProblem}`)
  }
  const set = new Set(values)
  // own keys only: a selector on `constructor` must not match every node
  const has = (labels: Record<string, string>): boolean => Object.hasOwn(labels, key)
  switch (operator) {
    case 'exists': return has
    case '!exists': return (labels) => !has(labels)
    case 'in':
    case '=': return (labels) => has(labels) && set.has(labels[key] ?? '')
    default: return (labels) => !has(labels) || !set.has(labels[key] ?? '')
  }
}

/** Parses a label selector; throws BadListOptionsError on what Kubernetes refuses. The empty selector matches everything. */
export function parseSelector (selector: string): LabelTest {
  const tokens = tokenize(selector)
  let at = 0
  const next = (): Token => tokens[Math.min(at++, tokens.length - 1)] ?? { kind: 'end', text: 'end of string' }
  const peek = (): Token => tokens[at] ?? { kind: 'end', text: 'end of string' }
  const found = (token: Token, expected: string): BadListOptionsError => parseFailure(`found '${token.text}', expected: ${expected}`)
  const atTermEnd = (token: Token): boolean => token.kind === 'end' || token.text === ','

  const tests: LabelTest[] = []
  if (peek().kind === 'end') return () => true
  for (;;) {
    let token = next()
    const negated = token.kind === 'operator' && token.text === '!'
    if (negated) token = next()
    if (token.kind !== 'identifier') throw found(token, 'identifier')
    const key = token.text
    if (atTermEnd(peek())) {
      tests.push(requirementTest(key, negated ? '!exists' : 'exists', []))
    } else if (negated) {
      throw found(peek(), "',' or 'end of string'")
    } else {
      const operator = next()
      if (operator.kind === 'identifier' && (operator.text === 'in' || operator.text === 'notin')) {
        const open = next()
        if (open.text !== '(' || open.kind !== 'operator') throw found(open, "'('")
        const values: string[] = []
        let expectValue = true
        for (;;) {
          const item = next()
          if (item.kind === 'identifier' && expectValue) {
            values.push(item.text)
            expectValue = false
          } else if (item.text === ',' && item.kind === 'operator') {
            if (expectValue) values.push('')
            expectValue = true
          } else if (item.text === ')' && item.kind === 'operator') {
            if (expectValue && values.length > 0) values.push('')
            break
          } else {
            throw found(item, expectValue ? "identifier, ',' or ')'" : "',' or ')'")
          }
        }
        tests.push(requirementTest(key, operator.text, values))
      } else if (operator.kind === 'operator' && ['=', '==', '!=', '>', '<'].includes(operator.text)) {
        // `a=` is a requirement on the empty value
        const value = atTermEnd(peek()) ? undefined : next()
        if (value !== undefined && value.kind !== 'identifier') throw found(value, 'identifier')
        const setOperator: SetOperator = operator.text === '==' ? '=' : operator.text as SetOperator
        tests.push(requirementTest(key, setOperator, [value?.text ?? '']))
      } else {
        throw found(operator, "'=', '==', '!=', '>', '<', 'in', 'notin', ',' or 'end of string'")
      }
    }
    const after = next()
    if (after.kind === 'end') break
    if (after.text !== ',') throw found(after, "',' or 'end of string'")
  }
  return (labels) => tests.every((test) => test(labels))
}

// pkg/fields: terms split on unescaped commas, each at its first operator; `\` escapes `\`, `,` and `=` in values
function splitTerms (selector: string): string[] {
  const terms: string[] = []
  let start = 0
  for (let i = 0; i < selector.length; i += 1) {
    if (selector[i] === '\\') i += 1
    else if (selector[i] === ',') {
      terms.push(selector.slice(start, i))
      start = i + 1
    }
  }
  terms.push(selector.slice(start))
  return terms
}

function unescapeValue (selector: string, value: string): string {
  let result = ''
  for (let i = 0; i < value.length; i += 1) {
    const char = value[i] ?? ''
    if (char === '\\') {
      const escaped = value[i + 1]
      if (escaped !== '\\' && escaped !== ',' && escaped !== '=') {
        throw new BadListOptionsError(`invalid field selector: '${selector}': invalid escape sequence in ${JSON.stringify(value)}`)
      }
      result += escaped
      i += 1
    } else if (char === '=' || char === ',') {
      throw new BadListOptionsError(`invalid field selector: '${selector}': unescaped '${char}' in ${JSON.stringify(value)}`)
    } else {
      result += char
    }
  }
  return result
}

/**
 * Parses a field selector over the fields the resource supports (`fieldNames`); throws BadListOptionsError for
 * a term it cannot parse and for any other field, as Kubernetes does. The empty selector matches everything.
 */
export function parseFieldSelector (selector: string, fieldNames: readonly string[]): FieldTest {
  const tests: FieldTest[] = splitTerms(selector).filter((term) => term !== '').map((term) => {
    const match = /^(.*?)(!=|==|=)(.*)$/s.exec(term)
    if (match === null) throw new BadListOptionsError(`invalid selector: '${selector}'; can't understand '${term}'`)
    const [, field = '', operator, raw = ''] = match
    const value = unescapeValue(selector, raw)
    if (!fieldNames.includes(field)) throw new BadListOptionsError(`field label not supported: ${field}`)
    return operator === '!=' ? (fields) => fields[field] !== value : (fields) => fields[field] === value
  })
  return (fields) => tests.every((test) => test(fields))
}
