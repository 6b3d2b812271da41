import { describe, expect, it } from 'vitest'
import { labelKeyProblem, labelPatch, labelValueProblem } from '../../src/domain/node-labels.ts'

describe('labelPatch (a removed key null, a changed or new one its value, an unchanged one left out)', () => {
  it.each([
    [{ a: '1', b: '2', c: '3' }, { a: '1', c: '4', d: '99' }, { b: null, c: '4', d: '99' }],
    [undefined, { a: '1', b: '2', c: '3' }, { a: '1', b: '2', c: '3' }],
    [{ a: '1', b: '2', c: '3' }, { a: '1', b: '2', c: '3' }, {}],
    [{ a: '1', b: '2', c: '3' }, {}, { a: null, b: null, c: null }],
    [undefined, {}, {}],
    [{ a: '1', b: '2', 'kubernetes.io/hostname': 'h' }, { a: '99' }, { a: '99', b: null }]
  ])('current %o, request %o → patch %o', (current, requested, patch) => {
    expect(labelPatch(current, requested)).toEqual(patch)
  })

  it('deletes with null only keys that exist, and never drops kubernetes.io keys implicitly', () => {
    expect(labelPatch({ a: '1', 'node-role.kubernetes.io/worker': '' }, { a: null, z: null })).toEqual({ a: null })
    expect(labelPatch({ 'x.k8s.io/y': '1', 'topology.kubernetes.io/zone': 'z1' }, {})).toEqual({ 'x.k8s.io/y': null })
  })

  it('reads own keys only: labels named like Object.prototype members are removed, set and left alone like any other', () => {
    expect(labelPatch({ toString: 'x', constructor: 'y', a: '1' }, { a: '1' })).toEqual({ toString: null, constructor: null })
    expect(labelPatch({ a: '1' }, { a: '1', valueOf: 'v', hasOwnProperty: 'h' })).toEqual({ valueOf: 'v', hasOwnProperty: 'h' })
    expect(labelPatch({ a: '1' }, { a: '1', toString: null, constructor: null })).toEqual({})
    expect(labelPatch({ toString: 'x' }, { toString: 'x' })).toEqual({})
  })
})

describe('label syntax', () => {
  it('accepts Kubernetes label keys and values', () => {
    for (const key of ['a', 'node-role.kubernetes.io/worker', 'example.com/my_label.x-1']) expect(labelKeyProblem(key)).toBeUndefined()
    for (const value of ['', 'enabled', 'v1.2_3-x']) expect(labelValueProblem(value)).toBeUndefined()
  })
  it('rejects keys and values that could not be labels', () => {
    for (const key of ['', '-a', 'a b', '/a', 'Bad_Prefix/a', 'a;b', 'x'.repeat(64)]) expect(labelKeyProblem(key), key).toBeDefined()
    for (const value of ['$(id)', 'a b', "'", 'x'.repeat(64), 'a\nb']) expect(labelValueProblem(value), value).toBeDefined()
  })
})
