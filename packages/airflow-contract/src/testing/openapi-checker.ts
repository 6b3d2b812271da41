// An OpenAPI 3.1 document as a checker of real requests and answers: finds the operation of a method and path,
// and validates a request body and each answer's body (JSON, or text of another media type) against the schema
// the document gives for that status. Used against Airflow's documents and against our services' own.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

interface Media { schema?: unknown }
interface Operation {
  requestBody?: { content?: Record<string, Media> }
  responses: Record<string, { content?: Record<string, Media> }>
}
/** The parts of an OpenAPI document the checker reads. */
export interface OpenApiDocument { paths: Record<string, Record<string, Operation>>, components?: Record<string, unknown> }

/** One answer as a client saw it; without a content type its body is taken as JSON. */
export interface Answer { status: number, body: unknown, text: string, contentType?: string | null | undefined, headers?: unknown }

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020
const mediaTypeOf = (contentType: string): string => contentType.split(';')[0]?.trim().toLowerCase() ?? ''

/** A checker over one or more documents (`id` names each for its `$ref`s); `seen` lists each `METHOD template status` answered. */
export function openApiChecker (documents: Array<{ id: string, doc: OpenApiDocument }>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  for (const { id, doc } of documents) ajv.addSchema({ $id: `${id}.json`, components: doc.components ?? {} })
  // a schema taken out of its document resolves its local refs inside that document's components
  const rebase = (schema: unknown, id: string): unknown =>
    JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${id}.json#/`))
  const templates = documents.flatMap(({ id, doc }) => Object.entries(doc.paths).map(([template, ops]) => {
    const source = template.split('/').map((s) => s.startsWith('{') ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\~]/g, '\\$&')).join('/')
    return { id, template, ops, re: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length }
  })).sort((a, b) => a.params - b.params)

  const seen = new Set<string>()
  function find (method: string, path: string) {
    const bare = path.split('?')[0] ?? ''
    const found = templates.find((t) => t.re.test(bare) && t.ops[method.toLowerCase()] !== undefined)
    if (found === undefined) throw new Error(`${method} ${bare} is not a path of the contract`)
    return { ...found, op: found.ops[method.toLowerCase()] as Operation }
  }
  function validate (what: string, id: string, schema: unknown, value: unknown): void {
    const check = ajv.compile(rebase(schema, id) as object)
    if (!check(value)) {
      throw new Error(`${what} does not match the contract: ${ajv.errorsText(check.errors)}\n${JSON.stringify(value)?.slice(0, 800) ?? ''}`)
    }
  }
  return {
    seen,
    /** Every `METHOD template` of the documents. */
    operations: (): string[] => templates.flatMap((t) => Object.keys(t.ops).map((m) => `${m.toUpperCase()} ${t.template}`)),
    request (method: string, path: string, body: unknown): void {
      const { id, template, op } = find(method, path)
      const schema = op.requestBody?.content?.['application/json']?.schema
      if (schema !== undefined && typeof body === 'object') validate(`request ${method} ${template}`, id, schema, body)
    },
    response (method: string, path: string, answer: Answer): void {
      const { id, template, op } = find(method, path)
      const status = String(answer.status)
      const documented = op.responses[status] ?? op.responses[`${status[0] ?? ''}XX`] ?? op.responses.default
      if (documented === undefined) throw new Error(`${method} ${template} answered ${status}, a status the contract does not list`)
      seen.add(`${method} ${template} ${status}`)
      const type = answer.contentType === undefined || answer.contentType === null ? 'application/json' : mediaTypeOf(answer.contentType)
      const content = documented.content ?? {}
      if (Object.keys(content).length === 0 || answer.status === 204) {
        if (answer.text !== '') throw new Error(`${method} ${template} answered ${status} with a body the contract does not describe`)
        return
      }
      const media = content[type]
      if (media === undefined) {
        throw new Error(`${method} ${template} answered ${status} as ${type}, the contract says ${Object.keys(content).join(', ')}`)
      }
      if (media.schema === undefined) return
      validate(`response ${status} of ${method} ${template}`, id, media.schema, type.endsWith('json') ? answer.body : answer.text)
    }
  }
}
