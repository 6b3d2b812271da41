// What the configdocs answers show of a secret: a cleartext read says when a secret's data is shown as rendered (the
// store gives no other for a document that takes values), and no validation message of a dry run carries a secret.
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML } from '../helpers/stack.ts'
import { buildTestApp } from '../helpers/test-app.ts'
import { creds, HOSTS, PLAIN_SECRET } from '../helpers/secret-documents.ts'

type Stack = Awaited<ReturnType<typeof buildTestStack>>
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }

const CREDS = creds('pw1') + PLAIN_SECRET

async function stage (stack: Stack, collection: string, body: string, query = ''): Promise<void> {
  const res = await stack.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })
  expect(res.statusCode, res.body).toBe(201)
}

describe('GET /api/v1.0/configdocs/{collection}?cleartext-secrets=true', () => {
  it('says above a secret\'s data that it is shown as rendered when the document takes values; a secret that takes none is as stored', async () => {
    const stack = await buildTestStack()
    await stage(stack, 'global', GLOBAL_YAML)
    await stage(stack, 'hosts', HOSTS, '?buffermode=append')
    await stage(stack, 'creds', CREDS, '?buffermode=append')
    const res = await stack.app.inject({ url: '/api/v1.0/configdocs/creds?version=buffer&cleartext-secrets=true', headers: AUTH })
    expect(res.statusCode, res.body).toBe(200)
    const docs = parseAllDocuments(res.body)
    const [url, key] = docs
    expect(url?.toJS().data).toBe('postgres://app:pw1@10.0.0.5/db')
    expect(String(url)).toContain('\n# data as rendered: this document takes values by substitution or layering, ' +
      'and the store gives its secret only rendered, not as stored\ndata: ')
    expect(key?.toJS().data).toBe('key-hunter2')
    expect(String(key)).not.toContain('# data as rendered')
  })
})

describe('POST /api/v1.0/commitconfigdocs?dryrun=true', () => {
  it('never shows a secret in a validation message of a document failing its DataSchema (maxLength, pattern, enum)', async () => {
    const stack = await buildTestStack()
    const schema = `---
schema: deckhand/DataSchema/v1
metadata: {schema: metadata/Control/v1, name: example/Token/v1, storagePolicy: cleartext}
data:
  type: object
  properties:
    short: {type: string, maxLength: 3}
    shaped: {type: string, pattern: "^x"}
    listed: {enum: [a, b]}
`
    const token = `---
schema: example/Token/v1
metadata:
  schema: metadata/Document/v1
  name: token
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: encrypted
data: {short: hunter2, shaped: hunter3, listed: hunter4}
`
    await stage(stack, 'global', GLOBAL_YAML + schema)
    await stage(stack, 'tokens', token, '?buffermode=append')
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs?dryrun=true', headers: AUTH })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().message).toBe('Validations failed DRYRUN')
    const entries = res.json().details.messageList as Array<{ message: string, documents?: Array<{ name: string }> }>
    expect(entries.filter((m) => m.documents?.[0]?.name === 'token').map((m) => m.message))
      .toEqual(['Sanitized to avoid exposing secret.', 'Sanitized to avoid exposing secret.', 'Sanitized to avoid exposing secret.'])
    expect(res.body).not.toMatch(/hunter/)
  })
})

describe('a store that shows a secret in a DataSchema failure, as Deckhand does for maxLength', () => {
  it('answers the cleartext read\'s 409 naming the failing document, never the message that holds the value', async () => {
    const t = await buildTestApp()
    const token = '---\nschema: example/Token/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: token\n' +
      '  layeringDefinition: {abstract: false, layer: site}\n  storagePolicy: encrypted\ndata: {short: hunter2}\n'
    await t.store.client.putCollection('tokens', token, { contextMarker: 'test' })
    // Deckhand's answer: its jsonschema message starts with the failing value
    t.store.client.rendered = async () => ({
      ok: false,
      status: 400,
      text: 'message: Validation\ndetails:\n  messageList:\n  - name: D002\n    message: "\'hunter2\' is too long"\n' +
        '    documents: [{schema: example/Token/v1, name: token, layer: site}]\n'
    })
    const res = await t.app.inject({ url: '/api/v1.0/configdocs/tokens?cleartext-secrets=true', headers: AUTH })
    expect(res.statusCode, res.body).toBe(409)
    expect(res.json()).toMatchObject({
      message: 'Unable to show the secrets in cleartext',
      reason: 'The store cannot render revision 1: example/Token/v1 token fails its DataSchema. The secrets of collection tokens are ' +
        'read from the rendered documents of revision 1; its documents can be read redacted.'
    })
    expect(res.body).not.toContain('hunter2')
  })
})
