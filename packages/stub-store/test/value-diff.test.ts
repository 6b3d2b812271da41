// The value diff under the deepdiff route: two values compared in Python deepdiff's vocabulary.
import { describe, expect, it } from 'vitest'
import { valueDiff } from '../src/domain/value-diff.ts'
import { WholeFloat } from '../src/domain/values.ts'

describe('valueDiff (Python deepdiff of two values)', () => {
  it('answers {} for equal values whatever the key order', () => {
    expect(valueDiff({ a: [1, { b: 'x' }], when: new Date('2026-05-01T00:00:00Z') }, { when: new Date('2026-05-01T00:00:00Z'), a: [1, { b: 'x' }] })).toEqual({})
    expect(valueDiff(1.5, 1.5)).toEqual({})
    expect(valueDiff(new WholeFloat(2), new WholeFloat(2))).toEqual({})
  })

  it('names Python types of every YAML value and compares same-typed leaves by value', () => {
    expect(valueDiff(new Date('2026-05-01T00:00:00Z'), new Date('2026-05-01T10:00:00Z'))).toEqual({
      type_changes: { root: { old_type: 'date', new_type: 'datetime', old_value: new Date('2026-05-01T00:00:00Z'), new_value: new Date('2026-05-01T10:00:00Z') } }
    })
    expect(valueDiff(new Uint8Array([1]), new Uint8Array([2]))).toEqual({
      values_changed: { root: { new_value: new Uint8Array([2]), old_value: new Uint8Array([1]) } }
    })
    expect(valueDiff(new WholeFloat(1), 1.5)).toEqual({ values_changed: { root: { new_value: 1.5, old_value: new WholeFloat(1) } } })
    expect(valueDiff(Number.NaN, Number.NaN)).toEqual({ values_changed: { root: { new_value: Number.NaN, old_value: Number.NaN } } })
    expect(valueDiff([], {})).toEqual({ type_changes: { root: { old_type: 'list', new_type: 'dict', old_value: [], new_value: {} } } })
  })

  it('quotes a key holding a single quote in double quotes', () => {
    expect(valueDiff({}, { "it's": 1, plain: 2 })).toEqual({ dictionary_item_added: ['root["it\'s"]', "root['plain']"] })
  })
})
