// Reads a service's configuration from environment variables through a typebox schema (STYLE.md §6).
import type { Static, TObject } from 'typebox'
import { Value } from 'typebox/value'

/** Thrown when one or more variables are invalid; the message lists every one of them. */
export class ConfigError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
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
    if (type === 'integer' && !/^-?\d+$/.test(String(value))) problems.set(key, `${key}: must be integer (got ${JSON.stringify(value)})`)
    if (type === 'number' && !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(String(value))) problems.set(key, `${key}: must be number (got ${JSON.stringify(value)})`)
  }
  const withDefaults = Value.Default(schema, raw)
  const converted = Value.Convert(schema, withDefaults)
  if (problems.size === 0 && Value.Check(schema, converted)) return converted as Static<S>
  for (const error of Value.Errors(schema, converted)) {
    const key = error.instancePath.replace(/^\//, '')
    if (problems.has(key)) continue // a union reports each branch: the first says enough, or the choices below
    const given = key === '' ? '' : ` (got ${JSON.stringify(raw[key] ?? null)})`
    const choices = literalChoices(schema.properties[key])
    const what = choices === undefined ? error.message : `must be one of ${choices.join(', ')}`
    problems.set(key, `${key === '' ? 'configuration' : key}: ${what}${given}`)
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
