// The Airflow OpenAPI documents in ../shared/contracts (read at run time, never copied into the project) as a
// checker of request and response bodies; used by stub-engine's contract test and the orchestrator's engine client test.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'
import { expect } from 'vitest'
import type { Reply } from './engine.ts'

const CONTRACTS = resolve(import.meta.dirname, '../../../../../shared/contracts')
const REST_FILE = resolve(CONTRACTS, 'airflow-v2-rest-api.yaml')
const AUTH_FILE = resolve(CONTRACTS, 'airflow-simple-auth-manager.yaml')
/** Whether the documents are beside the repository (developers and CI); tests using them skip, visibly, otherwise. */
export const CONTRACTS_PRESENT = existsSync(REST_FILE) && existsSync(AUTH_FILE)
if (!CONTRACTS_PRESENT) console.warn(`Airflow contract tests SKIPPED: ${REST_FILE} or ${AUTH_FILE} is missing`)

interface Operation {
  requestBody?: { content?: Record<string, { schema: unknown }> }
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
}
interface OpenApi { paths: Record<string, Record<string, Operation>>, components: Record<string, unknown> }

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

/** Finds the contract operation of a request and validates request and response bodies against its schemas. */
export function contractChecker () {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  const docs: Array<{ id: string, doc: OpenApi }> = [
    { id: 'rest', doc: parse(readFileSync(REST_FILE, 'utf8')) as OpenApi },
    { id: 'auth', doc: parse(readFileSync(AUTH_FILE, 'utf8')) as OpenApi }
  ]
  for (const { id, doc } of docs) ajv.addSchema({ $id: `${id}.json`, components: doc.components })
  // Rewrite local refs so that a schema taken out of the document resolves inside its document's components.
  const rebase = (schema: unknown, id: string): unknown => JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${id}.json#/`))
  const templates = docs.flatMap(({ id, doc }) => Object.entries(doc.paths).map(([template, ops]) => {
    const source = template.split('/').map((s) => s.startsWith('{') ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\~]/g, '\\$&')).join('/')
    return { id, template, ops, re: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length }
  })).sort((a, b) => a.params - b.params)

  const seen = new Set<string>()
  function find (method: string, path: string) {
    const bare = path.split('?')[0]!
    const found = templates.find((t) => t.re.test(bare) && t.ops[method.toLowerCase()] !== undefined)
    if (found === undefined) throw new Error(`${method} ${bare} is not a path of the contract`)
    return { ...found, op: found.ops[method.toLowerCase()]! }
  }
  function validate (what: string, id: string, schema: unknown, value: unknown): void {
    const check = ajv.compile(rebase(schema, id) as object)
    if (!check(value)) throw new Error(`${what} does not match the contract: ${ajv.errorsText(check.errors)}\n${JSON.stringify(value).slice(0, 800)}`)
  }
  return {
    seen,
    request (method: string, path: string, body: unknown): void {
      const { id, template, op } = find(method, path)
      const schema = op.requestBody?.content?.['application/json']?.schema
      if (schema !== undefined && typeof body === 'object') validate(`request ${method} ${template}`, id, schema, body)
    },
    response (method: string, path: string, reply: Reply): void {
      const { id, template, op } = find(method, path)
      const documented = op.responses[String(reply.status)]
      if (documented === undefined) throw new Error(`${method} ${template} answered ${reply.status}, a status the contract does not list`)
      seen.add(`${method} ${template} ${reply.status}`)
      const schema = documented.content?.['application/json']?.schema
      if (schema === undefined) { expect(reply.text).toBe(''); return }
      validate(`response ${reply.status} of ${method} ${template}`, id, schema, reply.body)
    }
  }
}
