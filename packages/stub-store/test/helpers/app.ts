// Test helpers: an in-memory store app closed after each test, YAML request helpers and a YAML 1.1
// reader independent of the store's own emitter.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { parseAllDocuments } from 'yaml'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp, createDeps, loadConfig } from '../../src/index.ts'

export const YAML = { 'content-type': 'application/x-yaml' }

export async function buildTestApp (env: Record<string, string> = {}): Promise<FastifyInstance> {
  const deps = createDeps(loadConfig({ LOG_LEVEL: 'silent', ...env }))
  const app = buildApp(deps)
  onTestFinished(async () => {
    await app.close()
    deps.db.close()
  })
  await app.ready()
  return app
}

/** A policy file overriding the given rules (STORE_POLICY_FILE), removed after the test. */
export function policyFile (rules: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'stub-store-policy-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'policy.yaml')
  writeFileSync(file, Object.entries(rules).map(([k, v]) => `'${k}': '${v}'`).join('\n') + '\n')
  return file
}

/** Every document of a YAML response body, read with YAML 1.1 rules. */
export function docsOf (res: LightMyRequestResponse): any[] {
  return parseAllDocuments(res.body, { version: '1.1' }).map((d) => d.toJS())
}

/** The body as one YAML mapping. */
export function bodyOf (res: LightMyRequestResponse): any {
  const docs = docsOf(res)
  return docs[0]
}

export async function put (
  app: FastifyInstance,
  bucket: string,
  body: string,
  headers: Record<string, string> = {}
): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'PUT', url: `/api/v1.0/buckets/${bucket}/documents`, headers: { ...YAML, ...headers }, payload: body })
}

export async function get (app: FastifyInstance, path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'GET', url: `/api/v1.0${path}`, headers })
}

export async function post (
  app: FastifyInstance,
  path: string,
  body?: string,
  headers: Record<string, string> = {}
): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: `/api/v1.0${path}`, headers: body === undefined ? headers : { ...YAML, ...headers }, ...(body === undefined ? {} : { payload: body }) })
}

export async function del (app: FastifyInstance, path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'DELETE', url: `/api/v1.0${path}`, headers })
}

/** Asserts Deckhand's error body (a Status failure with its code, error type and message list) and returns it. */
export function expectError (res: LightMyRequestResponse, status: number, errorType: string): any {
  const body = bodyOf(res)
  if (res.statusCode !== status || body?.details?.errorType !== errorType) {
    throw new Error(`expected ${status} ${errorType}, got ${res.statusCode}:\n${res.body}`)
  }
  if (body.kind !== 'Status' || body.status !== 'Failure' || body.apiVersion !== 'v1.0' || !String(body.code).startsWith(String(status))) {
    throw new Error(`not a Deckhand error body:\n${res.body}`)
  }
  if (body.details.errorCount !== body.details.messageList.length || !body.details.messageList.every((m: any) => m.error === true && typeof m.message === 'string')) {
    throw new Error(`bad messageList:\n${res.body}`)
  }
  if (res.headers['content-type'] !== 'application/x-yaml') throw new Error(`error content type ${String(res.headers['content-type'])}`)
  return body
}

// ---- document builders -------------------------------------------------------------------------

export function layeringPolicy (layers: string[], name = 'layering-policy'): string {
  return `---
schema: deckhand/LayeringPolicy/v1
metadata:
  schema: metadata/Control/v1
  name: ${name}
data:
  layerOrder: [${layers.join(', ')}]
`
}

export interface DocSpec {
  schema?: string
  name: string
  layer: string
  labels?: Record<string, string>
  abstract?: boolean
  parentSelector?: Record<string, string>
  actions?: Array<{ method: string, path: string }>
  substitutions?: unknown[]
  replacement?: boolean
  storagePolicy?: string
  data?: unknown
}

export function doc (spec: DocSpec): string {
  const metadata: Record<string, unknown> = {
    schema: 'metadata/Document/v1',
    name: spec.name,
    storagePolicy: spec.storagePolicy ?? 'cleartext',
    layeringDefinition: {
      layer: spec.layer,
      ...(spec.abstract === undefined ? {} : { abstract: spec.abstract }),
      ...(spec.parentSelector === undefined ? {} : { parentSelector: spec.parentSelector }),
      ...(spec.actions === undefined ? {} : { actions: spec.actions })
    },
    ...(spec.labels === undefined ? {} : { labels: spec.labels }),
    ...(spec.substitutions === undefined ? {} : { substitutions: spec.substitutions }),
    ...(spec.replacement === undefined ? {} : { replacement: spec.replacement })
  }
  return `---\n${JSON.stringify({ schema: spec.schema ?? 'example/Kind/v1', metadata, data: spec.data ?? {} })}\n`
}

/** Renders and returns documents keyed by `schema name` (abstract ones are never there). */
export async function rendered (app: FastifyInstance, revision: number, query = ''): Promise<Record<string, any>> {
  const res = await get(app, `/revisions/${revision}/rendered-documents?cleartext-secrets=true${query}`)
  if (res.statusCode !== 200) throw new Error(`render failed ${res.statusCode}:\n${res.body}`)
  return Object.fromEntries(docsOf(res).map((d) => [d.metadata.name, d]))
}
