// A pydantic ValidationError as Python prints it: what Airflow's simple auth manager answers as the 422 `detail`
// string when the login body fails its model (it validates the body itself and reports the error's text, not the
// usual list of located errors).
import type { ValidationError } from '@slipway/airflow-contract'

/** The pydantic release of the Airflow the stand-in answers as (3.1.5 ships 2.12): it is part of every error's link. */
const PYDANTIC_DOCS = 'https://errors.pydantic.dev/2.12/v'

/** A JSON value as Python's repr() writes the value json.loads makes of it. */
export function pythonRepr (value: unknown): string {
  if (value === null || value === undefined) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'"
    const body = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')
    return `${quote}${quote === "'" ? body.replace(/'/g, "\\'") : body}${quote}`
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`
}

function pythonType (value: unknown): string {
  if (value === null || value === undefined) return 'NoneType'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'string') return 'str'
  return Array.isArray(value) ? 'list' : 'dict'
}

/** pydantic shortens a long input: its first 25 and last 24 characters around `...`. */
const shortened = (repr: string): string => repr.length > 50 ? `${repr.slice(0, 25)}...${repr.slice(-24)}` : repr

/** The text of a pydantic ValidationError of `model` (locations without the `body` prefix: the model's own fields). */
export function pydanticText (model: string, errors: ValidationError[]): string {
  const lines = [`${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${model}`]
  for (const e of errors) {
    const loc = e.loc[0] === 'body' ? e.loc.slice(1) : e.loc
    lines.push(loc.join('.'))
    lines.push(`  ${e.msg} [type=${e.type}, input_value=${shortened(pythonRepr(e.input))}, input_type=${pythonType(e.input)}]`)
    lines.push(`    For further information visit ${PYDANTIC_DOCS}/${e.type}`)
  }
  return lines.join('\n')
}
