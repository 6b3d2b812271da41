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
  const withDefaults = Value.Default(schema, raw)
  const converted = Value.Convert(schema, withDefaults)
  if (Value.Check(schema, converted)) return converted as Static<S>
  const problems: string[] = []
  for (const error of Value.Errors(schema, converted)) {
    const key = error.instancePath.replace(/^\//, '')
    const given = key === '' ? '' : ` (got ${JSON.stringify(raw[key] ?? null)})`
    problems.push(`${key === '' ? 'configuration' : key}: ${error.message}${given}`)
  }
  throw new ConfigError(problems)
}

/** Renders a schema as markdown table rows (variable, default, description) for README tables. */
export function describeConfig (schema: TObject): string {
  return Object.entries(schema.properties).map(([key, prop]) => {
    const p = prop as { default?: unknown, description?: string }
    const def = p.default === undefined || p.default === '' ? '' : `\`${String(p.default)}\``
    return `| \`${key}\` | ${def} | ${p.description ?? ''} |`
  }).join('\n')
}
