import { describe, expect, it } from 'vitest'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestApp, exampleDesign, startDesignServer } from '../helpers/servers.ts'

async function validate (design: string | undefined, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const app = await buildTestApp()
  let payload = body
  if (design !== undefined) {
    const store = await startDesignServer(design)
    payload = { rel: 'design', href: `deckhand+${store.url}/api/v1.0/revisions/1/rendered-documents`, type: 'application/x-yaml' }
  }
  return await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { ...AUTH, ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) })
}

const WITHOUT_SCHEMAS = (design: string): string => design.split('\n---\n').filter((d) => !d.includes('schema: deckhand/DataSchema/v1')).join('\n---\n')

describe('POST /api/v1.0/validatedesign', () => {
  it('answers 200 with the success body for the example site', async () => {
    const res = await validate(exampleDesign())
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1.0',
      metadata: {},
      status: 'Success',
      message: 'Promenade validations succeeded',
      reason: 'Validation',
      details: { errorCount: 0, messageList: [] },
      code: '200 OK'
    })
  })

  it('validates a design without DataSchemas by cardinality only (upstream parity)', async () => {
    const design = WITHOUT_SCHEMAS(exampleDesign()).replace('    live-restore: true\n    storage-driver: overlay2', '    {}')
    expect((await validate(design)).statusCode).toBe(200)
  })

  it('answers 400 with one error when the Docker document is duplicated', async () => {
    const design = exampleDesign() + '\n---\nschema: promenade/Docker/v1\nmetadata: {schema: metadata/Document/v1, name: docker-2, layeringDefinition: {abstract: false, layer: site}, storagePolicy: cleartext}\ndata: {config: {}}\n'
    const res = await validate(design)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', message: 'Promenade validations failed', code: '400 Bad Request', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({ kind: 'ValidationMessage', error: true, level: 'Error', message: 'There are 2 Docker documents. However, there should be one.' })
  })

  it('answers 400 with two errors when KubernetesNetwork lacks dns.service_ip and Docker lacks config', async () => {
    const design = exampleDesign().replace('    service_ip: 10.96.0.10\n', '').replace('  config:\n    live-restore: true\n    storage-driver: overlay2', '  other: true')
    const res = await validate(design)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(2)
    const messages = res.json().details.messageList as Array<{ name: string, documents: unknown[], diagnostic: string }>
    expect(messages.map((m) => m.name).sort()).toEqual(['promenade/Docker/v1 schema', 'promenade/KubernetesNetwork/v1 schema'])
    expect(messages.find((m) => m.name.startsWith('promenade/Docker'))?.documents).toEqual([{ schema: 'promenade/Docker/v1', name: 'docker' }])
  })

  it('answers 400 with five errors for an empty design', async () => {
    // the store renders an empty site to nothing but its layering policy
    const res = await validate('schema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: layering-policy}\ndata: {layerOrder: [site]}\n')
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(5)
  })

  it('answers 400 with one error naming the store when the href cannot be fetched', async () => {
    const res = await validate(undefined, { href: 'deckhand+http://127.0.0.1:1/api/v1.0/revisions/1/rendered-documents' })
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(1)
    expect(res.json().details.messageList[0].message).toContain('store')
  })

  it.each([
    ['a body that is not JSON', '{"href":', { 'content-type': 'application/json' }, 'JSON could not be decoded'],
    ['no body', '', { 'content-type': 'application/json' }, 'Missing body'],
    ['a body without href', '{"rel":"design"}', { 'content-type': 'application/json' }, 'Missing href'],
    ['another content type', 'href: x', { 'content-type': 'application/x-yaml' }, 'Invalid content type']
  ])('answers %s with a 400 validation body', async (_what, body, headers, name) => {
    const res = await validate(undefined, body, headers)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Validation', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0].name).toBe(name)
  })

  it('answers a YAML error in the design with a 400 validation body', async () => {
    const res = await validate('a: [unclosed\n')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ reason: 'Validation', details: { errorCount: 1 } })
  })

  it('answers 401 and 403 with the error body', async () => {
    const app = await buildTestApp()
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign' })).statusCode).toBe(401)
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { 'x-auth-token': TEST_TOKENS.reader } })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ message: 'Forbidden', details: { errorType: 'ApiError' } })
  })
})
