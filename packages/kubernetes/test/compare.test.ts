import { describe, expect, it } from 'vitest'
import { compareAnswers, genericPath, normalize } from '../src/compare.ts'

const node = (labels: Record<string, string>, rv: string) => ({ kind: 'Node', metadata: { name: 'n1', uid: `u-${rv}`, resourceVersion: rv, labels } })

describe('the differential comparison', () => {
  it('makes uids, resourceVersions and timestamps equal, but not their presence', () => {
    expect(normalize({ metadata: { uid: 'a', resourceVersion: '7', creationTimestamp: 'x', name: 'n' } }))
      .toEqual({ metadata: { uid: '<uid>', resourceVersion: '<resourceVersion>', creationTimestamp: '<creationTimestamp>', name: 'n' } })
    expect(compareAnswers('get', { status: 200, json: node({}, '1'), text: '' }, { status: 200, json: { kind: 'Node', metadata: { name: 'n1', labels: {} } }, text: '' }))
      .toMatchObject([
        { call: 'get', path: 'metadata.uid', stub: '"<uid>"', real: '(absent)' },
        { call: 'get', path: 'metadata.resourceVersion', stub: '"<resourceVersion>"', real: '(absent)' }
      ])
  })

  it('names the status and each differing path', () => {
    const differences = compareAnswers('patch', { status: 200, json: node({ a: '1' }, '2'), text: '' }, { status: 422, json: node({ a: '2', b: '' }, '9'), text: '' })
    expect(differences).toMatchObject([
      { call: 'patch', path: 'status', stub: '200', real: '422' },
      { call: 'patch', path: 'metadata.labels.a', stub: '"1"', real: '"2"' },
      { call: 'patch', path: 'metadata.labels.b', stub: '(absent)', real: '""' }
    ])
  })

  it('compares bodies that are not JSON as text, and finds nothing in equal answers', () => {
    expect(compareAnswers('x', { status: 404, json: undefined, text: 'a' }, { status: 404, json: undefined, text: 'b' }))
      .toMatchObject([{ call: 'x', path: '(body)', stub: '"a"', real: '"b"', values: { stub: 'a', real: 'b' } }])
    expect(compareAnswers('x', { status: 200, json: node({ a: '1' }, '1'), text: '' }, { status: 200, json: node({ a: '1' }, '5'), text: '' })).toEqual([])
    expect(genericPath('items[3].status.addresses[0].type')).toBe('items[].status.addresses[].type')
  })
})
