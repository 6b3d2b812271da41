import { describe, expect, it } from 'vitest'
import { parseSelector } from '../../src/domain/selector.ts'

describe('parseSelector', () => {
  const labels = { 'kubernetes-apiserver': 'enabled', 'kubernetes.io/hostname': 'n0', role: 'control' }
  it.each([
    ['', true],
    ['kubernetes-apiserver=enabled', true],
    ['kubernetes-apiserver==enabled', true],
    ['kubernetes-apiserver=disabled', false],
    ['role!=worker', true],
    ['role!=control', false],
    ['role', true],
    ['!role', false],
    ['!missing', true],
    ['role=control,kubernetes.io/hostname=n0', true],
    ['role=control, kubernetes.io/hostname=n1', false]
  ])('%j matches: %s', (selector, expected) => {
    expect(parseSelector(selector)(labels)).toBe(expected)
  })
  it('rejects what it cannot parse', () => {
    for (const bad of ['a=b=c', '=x', 'a in (b)']) expect(() => parseSelector(bad), bad).toThrow(/unable to parse/)
  })
})
