// A validation message never shows a secret's value: Deckhand's DataSchema failures (D002) start with the failing
// value for most keywords and quote the failing section, and hide it only for type failures. The orchestrator
// answers a message naming an encrypted document with its document and path only — at staging and in a dry run —
// and leaves a cleartext document's message as Deckhand wrote it.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestApp, type TestApp } from '../helpers/test-app.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const SECRET = 'hunter2-very-long-passphrase'
const DOCS = `---
schema: deckhand/Passphrase/v1
metadata:
  schema: metadata/Document/v1
  name: ipmi-password
  storagePolicy: encrypted
  layeringDefinition: { abstract: false, layer: site }
data: ${SECRET}
---
schema: pegleg/CommonAddresses/v1
metadata:
  schema: metadata/Document/v1
  name: addresses
  storagePolicy: cleartext
  layeringDefinition: { abstract: false, layer: site }
data: { dns: not-an-address }
`

/** A store that reports what a real Deckhand reports for a passphrase too long and an address of the wrong shape. */
function reportingStore (t: TestApp): void {
  t.store.client.validationsDetail = async () => [{
    name: 'deckhand-schema-validation',
    status: 'failure',
    errors: [
      { name: 'ipmi-password', schema: 'deckhand/Passphrase/v1', layer: 'site', path: '.data', schema_path: '.maxLength', validation_schema: {}, error_section: SECRET, message: `'${SECRET}' is too long` },
      { name: 'addresses', schema: 'pegleg/CommonAddresses/v1', layer: 'site', path: '.data.dns', schema_path: '.properties.dns.format', validation_schema: {}, error_section: { dns: 'not-an-address' }, message: "'not-an-address' is not a 'ipv4'" }
    ]
  }]
}

describe('validation messages of encrypted documents', () => {
  it('shows no secret in the staging answer or the dry run, and keeps a cleartext document\'s message', async () => {
    const t = await buildTestApp()
    reportingStore(t)
    const staged = await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site', headers: YAML, payload: DOCS })
    // staged as Shipyard answers it: 201, with the store's findings in the body
    expect(staged.statusCode, staged.body).toBe(201)
    const dry = await t.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs?dryrun=true', headers: AUTH })
    expect(dry.statusCode).toBe(200)
    for (const answer of [staged, dry]) {
      expect(answer.body).not.toContain('hunter2')
      const messages = answer.json().details.messageList as Array<{ message: string, diagnostic: string }>
      expect(messages.map((m) => m.message)).toEqual([
        'Sanitized to avoid exposing secret.',
        "'not-an-address' is not a 'ipv4'"
      ])
      expect(messages[0]?.diagnostic).toBe('Section: Sanitized to avoid exposing secret. at .data (schema {} at .maxLength)')
      expect(messages[1]?.diagnostic).toBe('Section: {"dns":"not-an-address"} at .data.dns (schema {} at .properties.dns.format)')
    }
  })

  it('shows no secret when the store refuses to render the buffer for a DataSchema failure', async () => {
    const t = await buildTestApp()
    const staged = await t.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site', headers: YAML, payload: DOCS })
    expect(staged.statusCode, staged.body).toBe(201)
    t.store.client.rendered = async () => ({
      ok: false,
      status: 400,
      text: JSON.stringify({
        kind: 'Status',
        status: 'Failure',
        reason: 'Validation',
        code: 400,
        details: {
          errorCount: 1,
          messageList: [{ name: 'D002', error: true, message: `'${SECRET}' is too long`, diagnostic: { error_section: SECRET }, documents: [{ schema: 'deckhand/Passphrase/v1', name: 'ipmi-password', layer: 'site' }] }]
        }
      })
    })
    const dry = await t.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs?dryrun=true', headers: AUTH })
    expect(dry.statusCode).toBe(200)
    expect(dry.body).not.toContain('hunter2')
    expect(dry.json().details.messageList).toMatchObject([{
      name: 'D002',
      message: 'Sanitized to avoid exposing secret.',
      diagnostic: 'Sanitized to avoid exposing secret.'
    }])
  })
})
