import { describe, expect, it } from 'vitest'
import { parseFieldSelector, parseSelector } from '../../src/domain/selector.ts'
import { BadListOptionsError } from '../../src/errors.ts'

describe('parseSelector', () => {
  const labels = { 'kubernetes-apiserver': 'enabled', 'kubernetes.io/hostname': 'n0', role: 'control', rank: '7', empty: '' }
  it.each([
    ['', true],
    ['kubernetes-apiserver=enabled', true],
    ['kubernetes-apiserver==enabled', true],
    ['kubernetes-apiserver=disabled', false],
    ['role!=worker', true],
    ['role!=control', false],
    ['missing!=x', true],
    ['role', true],
    ['!role', false],
    ['!missing', true],
    ['constructor', false],
    ['!constructor', true],
    ['empty=', true],
    ['role=', false],
    ['role=control,kubernetes.io/hostname=n0', true],
    ['role=control, kubernetes.io/hostname=n1', false],
    ['role in (control,worker)', true],
    ['role in (worker)', false],
    ['missing in (x)', false],
    ['role notin (worker, storage)', true],
    ['role notin (control)', false],
    ['missing notin (x)', true],
    ['empty in (a,)', true],
    ['role in (control),kubernetes.io/hostname notin (n1,n2),!missing', true],
    ['rank>5', true],
    ['rank<5', false],
    ['role>5', false],
    ['missing<5', false]
  ])('%j matches: %s', (selector, expected) => {
    expect(parseSelector(selector)(labels)).toBe(expected)
  })

  it.each([
    'a=b=c', '=x', 'a=b,', 'a in b', 'a in (b', 'a in ()', 'a notin', '!a=b', 'a b', 'bad key=x', 'a=bad value!', 'a>x', 'a in (b c)'
  ])('refuses %j with a BadListOptionsError', (bad) => {
    expect(() => parseSelector(bad)).toThrow(BadListOptionsError)
    expect(() => parseSelector(bad)).toThrow(/^unable to parse requirement: /)
  })
})

describe('parseFieldSelector', () => {
  const FIELDS = ['metadata.name', 'spec.unschedulable']
  const fields = { 'metadata.name': 'n1', 'spec.unschedulable': 'false' }
  it.each([
    ['', true],
    ['metadata.name=n1', true],
    ['metadata.name==n1', true],
    ['metadata.name=n2', false],
    ['metadata.name!=n2', true],
    ['metadata.name!=n1', false],
    ['metadata.name=n1,spec.unschedulable=false', true],
    ['metadata.name=n1,spec.unschedulable=true', false]
  ])('%j matches: %s', (selector, expected) => {
    expect(parseFieldSelector(selector, FIELDS)(fields)).toBe(expected)
  })

  it('unescapes \\, \\= and \\\\ in values', () => {
    expect(parseFieldSelector('metadata.name=a\\,b\\=c\\\\', FIELDS)({ 'metadata.name': 'a,b=c\\' })).toBe(true)
  })

  it.each([
    ['status.phase=Ready', 'field label not supported: status.phase'],
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['metadata.name=a=b', "invalid field selector: 'metadata.name=a=b': unescaped '=' in \"a=b\""],
    ['metadata.name=a\\b', 'invalid field selector']
  ])('refuses %j', (bad, message) => {
    expect(() => parseFieldSelector(bad, FIELDS)).toThrow(BadListOptionsError)
    expect(() => parseFieldSelector(bad, FIELDS)).toThrow(message)
  })
})
