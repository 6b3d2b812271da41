import { describe, expect, it } from 'vitest'
import { applyLabelsPatch, labelKeyProblem, labelProblems, labelValueProblem } from '../../src/domain/labels.ts'
import { BadPatchError, PatchTypeError } from '../../src/errors.ts'

const current = { a: '1', b: '2', 'kubernetes.io/hostname': 'n1' }
const patch = (labels: unknown) => ({ metadata: { labels } })

/** Why a patch was refused: a body that is no patch (400), or a field of the wrong type (422, the reason ours). */
function badPatchReason (fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    if (error instanceof PatchTypeError) return error.why
    expect(error).toBeInstanceOf(BadPatchError)
    return (error as BadPatchError).reason
  }
  throw new Error('expected a BadPatchError or a PatchTypeError')
}

describe('applyLabelsPatch', () => {
  for (const kind of ['merge', 'strategic'] as const) {
    describe(`${kind} patch`, () => {
      it('adds new keys and overrides existing ones, keeping the rest', () => {
        expect(applyLabelsPatch(current, patch({ b: '20', c: '3' }), kind)).toEqual({ a: '1', b: '20', c: '3', 'kubernetes.io/hostname': 'n1' })
      })

      it('deletes a key given null, and ignores null for a missing key', () => {
        expect(applyLabelsPatch(current, patch({ a: null, zzz: null }), kind)).toEqual({ b: '2', 'kubernetes.io/hostname': 'n1' })
      })

      it('removes every label when labels is null', () => {
        expect(applyLabelsPatch(current, patch(null), kind)).toEqual({})
      })

      it('leaves the labels alone when the patch has no labels', () => {
        expect(applyLabelsPatch(current, { metadata: { annotations: { x: 'y' } } }, kind)).toEqual(current)
        expect(applyLabelsPatch(current, { spec: {} }, kind)).toEqual(current)
      })

      it('does not change the map it was given', () => {
        const before = { ...current }
        applyLabelsPatch(current, patch({ a: null, d: '4' }), kind)
        expect(current).toEqual(before)
      })

      it('rejects a body that is not an object, and labels that are not a map of strings', () => {
        expect(badPatchReason(() => applyLabelsPatch(current, [], kind))).toBe('The patch must be a JSON object')
        expect(badPatchReason(() => applyLabelsPatch(current, 'x', kind))).toBe('The patch must be a JSON object')
        expect(badPatchReason(() => applyLabelsPatch(current, { metadata: 3 }, kind))).toBe('metadata must be an object')
        expect(badPatchReason(() => applyLabelsPatch(current, patch(['a']), kind))).toBe('metadata.labels must be an object of strings, or null')
        expect(badPatchReason(() => applyLabelsPatch(current, patch({ a: 1 }), kind))).toBe('metadata.labels.a must be a string or null, got number')
      })
    })
  }

  it('strategic: $patch replace replaces the whole map', () => {
    expect(applyLabelsPatch(current, patch({ $patch: 'replace', x: '1', y: null }), 'strategic')).toEqual({ x: '1' })
  })

  it('strategic: $patch delete removes the whole map', () => {
    expect(applyLabelsPatch(current, patch({ $patch: 'delete', x: '1' }), 'strategic')).toEqual({})
  })

  it('strategic: $patch merge is the default merge', () => {
    expect(applyLabelsPatch(current, patch({ $patch: 'merge', a: null }), 'strategic')).toEqual({ b: '2', 'kubernetes.io/hostname': 'n1' })
  })

  it('strategic: an unknown $patch directive is a bad patch', () => {
    expect(badPatchReason(() => applyLabelsPatch(current, patch({ $patch: 'retain' }), 'strategic'))).toBe('Unknown $patch directive "retain" in metadata.labels')
  })

  it('merge: $patch is an ordinary key (which Kubernetes then refuses as a label)', () => {
    const result = applyLabelsPatch(current, patch({ $patch: 'replace' }), 'merge')
    expect(result).toEqual({ ...current, $patch: 'replace' })
    expect(labelProblems(result)).toHaveLength(1)
  })
})

describe('label keys and values', () => {
  it.each([
    'a', 'ucp-control-plane', 'node-role.kubernetes.io/master', 'example.com/x_y.z', 'A1', 'a'.repeat(63)
  ])('accepts the key %s', (key) => {
    expect(labelKeyProblem(key)).toBeUndefined()
  })

  it.each([
    ['', 'name part'], ['-a', 'name part'], ['a b', 'name part'], ['a'.repeat(64), 'name part'], ['a/b/c', 'at most one'],
    ['/a', 'prefix'], ['Example.com/a', 'prefix'], ['$patch', 'name part']
  ])('refuses the key %j', (key, why) => {
    expect(labelKeyProblem(key)).toContain(why)
  })

  it('accepts empty and ordinary values, refuses long or odd ones', () => {
    expect(labelValueProblem('')).toBeUndefined()
    expect(labelValueProblem('enabled')).toBeUndefined()
    expect(labelValueProblem('v1.2_3-a')).toBeUndefined()
    expect(labelValueProblem('x'.repeat(64))).toContain('63 characters')
    expect(labelValueProblem('a/b')).toContain('alphanumeric')
    expect(labelValueProblem('trailing-')).toContain('alphanumeric')
  })

  it('names the field of each problem', () => {
    expect(labelProblems({ 'bad key': 'ok', good: 'bad value!' })).toEqual([
      { field: 'metadata.labels', message: expect.stringContaining('Invalid value: "bad key"') },
      { field: 'metadata.labels', message: expect.stringContaining('Invalid value: "bad value!"') }
    ])
  })
})
