// The fast YAML path reads every stream it takes on exactly as the slow path does (the yaml package with PyYAML's
// 1.1 resolvers): the same documents, values, types (whole-number floats, timestamps) and key spellings. Streams with
// anchors, aliases, tags, directives or merge keys, and anything it cannot read, are left to the slow path.
import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { describe, expect, it } from 'vitest'
import { emitYamlStream, parseFast, parseSlowly, parseYamlStream } from '../src/yaml/codec.ts'
import { syntheticSite } from '../../../bench/render.ts'

const EXAMPLES = resolve(import.meta.dirname, '../../../examples/site')

/** The fast reading equals the slow one (both as the store keeps them: values and the special-form flag). */
function same (text: string): void {
  const fast = parseFast(text)
  expect(fast, `the fast path should take:\n${text.slice(0, 300)}`).toBeDefined()
  expect(fast).toEqual(parseSlowly(text))
}

const EDGE_CASES = [
  '', '# only a comment\n', '---\n', '---\n...\n', 'a: 1\n...\n---\nb: 2\n', '--- \nx\n', '---\n---\na: 1\n',
  'a:\nb: ~\nc: null\nd: Null\ne: NULL\n',
  'y: y\nn: n\nyes: yes\nNo: No\non: ON\noff: Off\ntrue: True\nfalse: FALSE\n',
  'i: 0\nj: -17\nk: +3\noctal: 0777\nhex: 0x1F\nbin: 0b101\nsexa: 1:20\nunder: 1_000\nbig: 123456789012345678901\n',
  'f: 1.0\ng: -0.0\nh: 1.5e+3\ni: .5\nj: 1.\nk: .inf\nl: -.Inf\nm: .NaN\nn: 1e5\no: 190:20:30.15\np: 3.14\n',
  'd: 2026-05-01\nt: 2026-05-01T10:00:00Z\nu: 2026-05-01 10:00:00.5 +02:00\nv: 2026-5-1\n',
  'keys:\n  1: a\n  true: c\n  2026-05-01: e\n  "quoted": f\n',
  'dup: 1\ndup: 2\n',
  'q1: "a\\tb\\x41\\u263A\\U0001F600\\"\\\\ \\/"\nq2: \'it\'\'s\'\nq3: "line\\\n  folded"\nq4: "\\N\\_\\L\\P"\n',
  'lit: |\n  one\n  two\n\nkeep: |+\n  x\n\n\nstrip: |-\n  y\n\nfold: >\n  a\n  b\n\n  c\nind: |2\n    two spaces\n',
  'plain: this is\n  one folded\n  plain scalar\nurl: http://example.com:8080/x?y=1\ncolon: a:b\nhash: a#b\n',
  'flow: {a: 1, b: [x, "y", 2.0], c: {}}\nlist: [1, [2, [3]]]\nempty: []\n',
  '- a\n- - b\n  - c\n- d: 1\n  e: 2\n',
  'data:\n  - name: x\n    value: "10.0.0.1"\n  - name: "yes"\n    value: \'no\'\n',
  'tabs:\t1\nafter: value with spaces   \n',
  'unicode: "é ü ñ 漢字"\nplain_unicode: é漢\n'
]

describe('the fast YAML path', () => {
  it('reads the example site, the benchmark site and the edge cases exactly as the slow path', () => {
    for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'))) same(readFileSync(join(EXAMPLES, file), 'utf8'))
    same(syntheticSite(2000).yaml)
    for (const text of EDGE_CASES) same(text)
  })

  it('reads any value written by the yaml package or by the store\'s emitter exactly as the slow path', () => {
    const leaf = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom('on', 'off', 'y', 'yes', 'No', 'null', '~', '.', '0777', '1:20', '1_000', '2026-05-01', '1e5', '- a', 'a: b', '#c', ' lead', 'trail ', 'a\nb\n', 'x\n\n', '0x1f', '+.inf', '1.0', '"q"', "'s'"),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null)
    )
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 }))
    })).node
    let taken = 0
    let runs = 0
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 3 }), fc.constantFrom('1.1', '1.2'), fc.boolean(), (docs, version, flow) => {
      for (const text of [emitYamlStream(docs), docs.map((d) => stringify(d, { version: version as '1.1' | '1.2', collectionStyle: flow ? 'flow' : 'any' })).join('---\n')]) {
        runs++
        const fast = parseFast(text)
        if (fast === undefined) continue
        taken++
        expect(fast).toEqual(parseSlowly(text))
      }
    }), { numRuns: 1000 })
    // most generated streams are taken by the fast path: the comparison is not vacuous
    expect(taken / runs).toBeGreaterThan(0.8)
  })

  it('leaves anchors, aliases, tags, directives, merge keys and broken YAML to the slow path', () => {
    // and keys js-yaml would spell otherwise: null, a whole-number float
    for (const text of ['a: &x 1\nb: *x\n', 'a: !!str 1\n', '%YAML 1.1\n---\na: 1\n', 'a: {<<: {b: 1}}\n', 'a: [1\n', 'a: b: c\n', '~: d\n', '1.0: b\n']) {
      expect(parseFast(text), text).toBeUndefined()
    }
    expect(() => parseYamlStream('a: [1\n')).toThrow()
    expect(parseYamlStream('a: &x 1\nb: *x\n').map((d) => d.value)).toEqual([{ a: 1, b: 1 }])
    expect(parseYamlStream('~: d\n1.0: b\n').map((d) => d.value)).toEqual([{ '': 'd', '1.0': 'b' }])
  })
})
