// Reads a service's configuration from environment variables through a typebox schema, once, at start-up.
import { Type, type Static, type TObject } from 'typebox'
import { Value } from 'typebox/value'

/**
 * Thrown when one or more variables are invalid, or name something that cannot be used (a database that does not
 * answer); the message is one line per problem, each starting with the variable's name.
 */
export class ConfigError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(problems.join('\n'))
    this.name = 'ConfigError'
    this.problems = problems
  }
}

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** `LOG_LEVEL` of a service's ConfigSchema: one of pino's levels, checked at start-up. */
export const LogLevelSchema = (description = 'Log level: fatal, error, warn, info, debug, trace or silent') =>
  Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)), { default: 'info', description })

// a value echoed in a configuration error must not carry a secret: secrets never reach logs
const SECRET_NAME = /PASSWORD|TOKEN|SECRET|(^|_)KEY($|_)/

function shown (key: string, value: unknown): string {
  if (value === undefined || value === null) return 'null'
  if (SECRET_NAME.test(key)) return '(hidden)'
  return JSON.stringify(String(value).replace(/(:\/\/[^/:@]*:)[^/@]*@/, '$1***@'))
}

/**
 * Reads the schema's keys from `env`: applies defaults, coerces strings to the declared types and
 * throws one ConfigError naming every bad variable. Empty strings count as unset.
 */
export function readConfig<S extends TObject> (schema: S, env: Record<string, string | undefined> = process.env): Static<S> {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(schema.properties)) {
    const value = env[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  // numbers are written as numbers: typebox would read '1.9' as the integer 1 and '0x10' as 16 without a word
  const problems = new Map<string, string>()
  for (const [key, value] of Object.entries(raw)) {
    const type = (schema.properties[key] as { type?: string } | undefined)?.type
    if (type === 'integer' && !/^-?\d+$/.test(String(value))) problems.set(key, `${key}: must be integer (got ${shown(key, value)})`)
    if (type === 'number' && !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(String(value))) {
      problems.set(key, `${key}: must be number (got ${shown(key, value)})`)
    }
  }
  const withDefaults = Value.Default(schema, raw)
  const converted = Value.Convert(schema, withDefaults)
  if (problems.size === 0 && Value.Check(schema, converted)) return converted as Static<S>
  // each variable on its own: typebox stops at the first property that fails, and every bad one is to be named
  for (const [key, property] of Object.entries(schema.properties)) {
    const value = (converted as Record<string, unknown>)[key]
    if (problems.has(key) || Value.Check(property, value)) continue
    const choices = literalChoices(property)
    // a pattern means nothing to a reader: the property's first example shows what is wanted
    const example = (property as { examples?: unknown[] }).examples?.[0]
    const message = [...Value.Errors(property, value)][0]?.message ?? 'is invalid'
    const what = choices !== undefined
      ? `must be one of ${choices.join(', ')}`
      : message.startsWith('must match pattern') && example !== undefined ? `must look like ${String(example)}` : message
    problems.set(key, `${key}: ${what} (got ${shown(key, raw[key])})`)
  }
  throw new ConfigError([...problems.values()])
}

/** The allowed values of a union of literals (an enumeration), else undefined. */
function literalChoices (schema: unknown): string[] | undefined {
  const anyOf = (schema as { anyOf?: Array<{ const?: unknown }> } | undefined)?.anyOf
  if (anyOf === undefined || !anyOf.every((branch) => branch.const !== undefined)) return undefined
  return anyOf.map((branch) => String(branch.const))
}

/** Renders a schema as markdown table rows (variable, default, description) for README tables. */
export function describeConfig (schema: TObject): string {
  return Object.entries(schema.properties).map(([key, prop]) => {
    const p = prop as { default?: unknown, description?: string }
    const def = p.default === undefined || p.default === '' ? '' : `\`${String(p.default)}\``
    return `| \`${key}\` | ${def} | ${p.description ?? ''} |`
  }).join('\n')
}
