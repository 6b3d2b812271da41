import { describe, expect, it } from 'vitest'
import { AUTH, TEST_TOKENS } from '@slipway/common/testing'
import { buildTestApp, exampleDesign, startDesignServer } from '../helpers/servers.ts'

async function validate (design: string | undefined, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }, designHosts?: string[]) {
  let payload = body
  let hosts = designHosts
  if (design !== undefined) {
    const store = await startDesignServer(design)
    payload = { rel: 'design', href: `deckhand+${store.url}/api/v1.0/revisions/1/rendered-documents`, type: 'application/x-yaml' }
    hosts = [store.url]
  }
  const app = await buildTestApp({ designHosts: hosts })
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

  const GENESIS_SCHEMA_END = '    images: {type: object}\n  required: [hostname, ip, labels, images]'
  // Promenade's shipped Genesis schema: files[].url and tar_url point at a definition it does not have,
  // which must be accepted
  const withGenesisFiles = (design: string, files: string, definitions = ''): string =>
    design.replace(GENESIS_SCHEMA_END, `    files: ${files}\n${GENESIS_SCHEMA_END}${definitions === '' ? '' : `\n  definitions: ${definitions}`}`)

  it('answers 200 when a DataSchema $ref points to a missing definition', async () => {
    const design = withGenesisFiles(exampleDesign(), "{type: array, items: {type: object, properties: {url: {$ref: '#/definitions/url'}, tar_url: {$ref: '#/definitions/url'}}}}")
    expect(design).toContain("$ref: '#/definitions/url'")
    const res = await validate(design)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'Success', details: { errorCount: 0, messageList: [] } })
  })

  it('still validates the rest of a schema with a missing $ref, and follows the refs that resolve', async () => {
    const definitions = "{file: {type: object, properties: {url: {$ref: '#/definitions/url'}, mode: {type: integer}}}}"
    const design = withGenesisFiles(exampleDesign(), "{type: array, items: {$ref: '#/definitions/file'}}", definitions)
      .replace('  hostname: n0\n', '  hostname: n0\n  files: [{url: anything, mode: "0644"}]\n')
    const res = await validate(design)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(1)
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'promenade/Genesis/v1 schema', documents: [{ schema: 'promenade/Genesis/v1', name: 'genesis' }] })
    expect(res.json().details.messageList[0].message).toContain('/files/0/mode')
  })

  it('answers 400 with the one failure message when a DataSchema no document uses is invalid', async () => {
    const design = exampleDesign() + '\n---\nschema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: example/Unused/v1, storagePolicy: cleartext}\ndata: {type: 12}\n'
    const res = await validate(design)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'Failure', message: 'Promenade validations failed', code: '400 Bad Request', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({
      kind: 'ValidationMessage',
      error: true,
      name: 'Invalid DataSchema',
      documents: [{ schema: 'deckhand/DataSchema/v1', name: 'example/Unused/v1' }]
    })
    expect(res.json().details.messageList[0].message).toContain('example/Unused/v1')
  })

  it.each(['null', '[]', 'true', 'just text'])('answers a DataSchema whose data is %s with the one failure message', async (data) => {
    const design = exampleDesign() + `\n---\nschema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: example/Odd/v1, storagePolicy: cleartext}\ndata: ${data}\n`
    const res = await validate(design)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(1)
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'Invalid DataSchema', message: 'The DataSchema example/Odd/v1 is not a valid JSON schema: a JSON schema must be an object' })
  })

  it('answers an invalid schema with the one failure message even when documents would fail too', async () => {
    const design = exampleDesign().replace('  config:\n    live-restore: true\n    storage-driver: overlay2', '  other: true') +
      '\n---\nschema: deckhand/DataSchema/v1\nmetadata: {schema: metadata/Control/v1, name: example/Broken/v1, storagePolicy: cleartext}\ndata: {required: []}\n'
    const res = await validate(design)
    expect(res.statusCode).toBe(400)
    expect(res.json().details.errorCount).toBe(1)
    expect(res.json().details.messageList[0].name).toBe('Invalid DataSchema')
  })

  it.each(['not-a-url', 'http://[', 'deckhand+http://[', 'deckhand+not-a-url'])('answers the href %j with a 400 validation body', async (href) => {
    const res = await validate(undefined, { href })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', message: 'Promenade validations failed', reason: 'Validation', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'InvalidFormatError', message: 'design_ref is not a valid URL' })
  })

  it('answers an unexpected failure with a 400 validation body that carries none of its internals', async () => {
    const app = await buildTestApp({ fetchDesign: async () => { throw new TypeError('secret internal detail at /src/x.ts:1') } })
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ href: 'http://127.0.0.1:1/site.yaml' }) })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Validation', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0]).toMatchObject({ name: 'Unexpected error', error: true })
    expect(res.body).not.toContain('secret internal detail')
  })

  it('answers a plain http design that is not YAML with a 400 validation body', async () => {
    const store = await startDesignServer('a: [unclosed\n')
    const res = await validate(undefined, { href: `${store.url}/site.yaml` }, undefined, [store.url])
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ reason: 'Validation', details: { errorCount: 1 } })
    expect(res.json().details.messageList[0].message).toContain('not valid YAML')
  })

  it('answers 401 and 403 with the error body', async () => {
    const app = await buildTestApp()
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign' })).statusCode).toBe(401)
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign', headers: { 'x-auth-token': TEST_TOKENS.reader } })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ message: 'Forbidden', details: { errorType: 'ApiError' } })
  })
})
