import { describe, expect, it } from 'vitest'
import { expandedYamlSize } from '../src/yaml-expansion.ts'

/** One anchored string of `size` characters referenced `copies` times. */
function amplified (size: number, copies: number): string {
  return `a: &big ${'x'.repeat(size)}\nb: [${Array.from({ length: copies }, () => '*big').join(', ')}]\n`
}

describe('expandedYamlSize', () => {
  it('counts each alias as a copy of what it names, though the alias count is small', () => {
    const text = amplified(100_000, 99)
    const size = expandedYamlSize(text, 100_000_000)
    expect(size).toBeGreaterThanOrEqual(100 * 100_000)
    expect(size).toBeLessThan(100 * 100_000 + 1000)
  })

  it('measures text without an alias as it is', () => {
    expect(expandedYamlSize('a: 1\nb: [x, y]\n', 10)).toBe(15)
    expect(expandedYamlSize('a: "no * alias here"\n', 100)).toBeLessThan(30)
  })

  it('stops past the limit: nested aliases (billion laughs) answer quickly with a size above it', () => {
    let text = 'l0: &l0 lol\n'
    for (let i = 1; i < 40; i++) text += `l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]\n`
    const started = performance.now()
    expect(expandedYamlSize(text, 1_000_000)).toBeGreaterThan(1_000_000)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('counts an alias inside the node it names as unbounded, and adds the documents of a stream', () => {
    expect(expandedYamlSize('a: &a [1, *a]\n', 1000)).toBe(Number.POSITIVE_INFINITY)
    const one = expandedYamlSize('a: &s abcdefghij\nb: *s\n', 1000)
    expect(expandedYamlSize('a: &s abcdefghij\nb: *s\n---\na: &s abcdefghij\nb: *s\n', 1000)).toBe(2 * one)
    // a merge key copies the mapping it names
    expect(expandedYamlSize(`base: &b {k: ${'v'.repeat(500)}}\nx: {<<: *b}\ny: {<<: *b}\n`, 10_000)).toBeGreaterThan(1500)
  })
})
