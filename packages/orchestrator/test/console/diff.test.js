// The console's line diff (console/diff.js): a shortest edit script that rebuilds both texts, and hunks laid out
// as `diff -u` lays them out. Plain JavaScript, as the module it tests.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_EDITS, countChanges, diffLines, hunks, linesOf } from '../../console/diff.js'

/** Lines kept by a longest common subsequence, for the minimal number of edits. */
function lcsLength (a, b) {
  let row = new Array(b.length + 1).fill(0)
  for (let i = a.length - 1; i >= 0; i--) {
    const next = new Array(b.length + 1).fill(0)
    for (let j = b.length - 1; j >= 0; j--) next[j] = a[i] === b[j] ? row[j + 1] + 1 : Math.max(row[j], next[j + 1])
    row = next
  }
  return row[0]
}

describe('diffLines', () => {
  it('rebuilds both sides with the fewest edits, for any two texts', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 40 })
    fc.assert(fc.property(lines, lines, (a, b) => {
      const script = diffLines(a, b)
      expect(script.filter((e) => e.op !== '+').map((e) => e.text)).toEqual(a)
      expect(script.filter((e) => e.op !== '-').map((e) => e.text)).toEqual(b)
      const { added, removed } = countChanges(script)
      expect(added + removed).toBe(a.length + b.length - 2 * lcsLength(a, b))
    }), { numRuns: 1000 })
  })

  it('shows texts that differ in more than MAX_EDITS lines as all removed, then all added', () => {
    const a = Array.from({ length: MAX_EDITS }, (_, i) => `a${i}`)
    const b = Array.from({ length: MAX_EDITS }, (_, i) => `b${i}`)
    const script = diffLines(a, b)
    expect(countChanges(script)).toEqual({ added: MAX_EDITS, removed: MAX_EDITS })
    expect(script[0]).toEqual({ op: '-', text: 'a0' })
  })

  it('reads a final newline as the end of the last line', () => {
    expect(linesOf('x\ny\n')).toEqual(['x', 'y'])
    expect(linesOf('x\ny')).toEqual(['x', 'y'])
    expect(linesOf('')).toEqual([])
  })
})

describe('hunks', () => {
  it('lays out changes with three lines of context and diff -u headers', () => {
    const a = linesOf('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n')
    const b = linesOf('1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n')
    const found = hunks(diffLines(a, b)).map((h) => [h.header, ...h.lines.map((l) => `${l.op}${l.text}`)])
    expect(found).toEqual([
      ['@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'],
      ['@@ -18,3 +18,4 @@', ' 18', ' 19', ' 20', '+21']
    ])
  })

  it('joins changes closer than twice the context, and numbers an empty side from the line before', () => {
    const a = linesOf('a\nb\nc\nd\ne\nf\ng\nh\n')
    const b = linesOf('a\nB\nc\nd\ne\nf\nG\nh\n')
    expect(hunks(diffLines(a, b)).map((h) => h.header)).toEqual(['@@ -1,8 +1,8 @@'])
    expect(hunks(diffLines(['x', 'y'], ['x', 'y', 'z'])).map((h) => h.header)).toEqual(['@@ -1,2 +1,3 @@'])
    expect(hunks(diffLines([], ['z'])).map((h) => h.header)).toEqual(['@@ -0,0 +1,1 @@'])
    expect(hunks(diffLines(['a'], ['a']))).toEqual([])
  })
})
