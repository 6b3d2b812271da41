import { describe, expect, it } from 'vitest'
import { withoutMissingRefs } from '../../src/domain/missing-refs.ts'

const META = 'http://json-schema.org/draft-04/schema'
const known = (uri: string): unknown => uri === META ? { id: `${META}#` } : undefined

describe('withoutMissingRefs (a $ref to nothing accepts)', () => {
  it('replaces a pointer to a missing definition and keeps the one that exists', () => {
    const schema = { definitions: { a: { type: 'string' } }, properties: { x: { $ref: '#/definitions/a' }, y: { $ref: '#/definitions/b', description: 'gone' } } }
    expect(withoutMissingRefs(schema, known)).toEqual({ definitions: { a: { type: 'string' } }, properties: { x: { $ref: '#/definitions/a' }, y: {} } })
  })

  it('follows draft-04 id scopes, plain-name ids, escaped pointers and schemas ajv knows', () => {
    const schema = {
      id: 'http://example.org/s.json',
      definitions: { 'a/b': { type: 'string' }, named: { id: '#named', type: 'integer' } },
      properties: {
        absolute: { $ref: 'http://example.org/s.json#/definitions/a~1b' },
        relative: { $ref: '#/definitions/a~1b' },
        named: { $ref: '#named' },
        meta: { $ref: `${META}#` },
        remote: { $ref: 'http://elsewhere.example/x.json#/y' },
        missingName: { $ref: '#nothing' }
      }
    }
    const out = withoutMissingRefs(schema, known) as { properties: Record<string, unknown> }
    expect(out.properties).toEqual({
      absolute: { $ref: 'http://example.org/s.json#/definitions/a~1b' },
      relative: { $ref: '#/definitions/a~1b' },
      named: { $ref: '#named' },
      meta: { $ref: `${META}#` },
      remote: {},
      missingName: {}
    })
  })

  it('takes property names as names and enum values as data, and drops every $ref with all', () => {
    const schema = { properties: { $ref: { type: 'string' }, enum: { $ref: '#/nope' } }, enum: [{ $ref: '#/nope' }] }
    expect(withoutMissingRefs(schema, known)).toEqual({ properties: { $ref: { type: 'string' }, enum: {} }, enum: [{ $ref: '#/nope' }] })
    expect(withoutMissingRefs({ items: { $ref: '#' } }, known, { all: true })).toEqual({ items: {} })
  })
})
