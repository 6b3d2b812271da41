// The YAML codec and value helpers: emitter output reads back to the same values (property-based),
// Python-compatible JSON for hashes, and the live-set query on a long history.
import fc from 'fast-check'
import { parseAllDocuments } from 'yaml'
import { describe, expect, it } from 'vitest'
import { emitYaml, emitYamlStream, parseYamlStream } from '../src/yaml/codec.ts'
import { pyJsonDumps, pyStr, redactionHash } from '../src/domain/values.ts'
import { buildTestApp, doc, docsOf, get, put } from './helpers/app.ts'

const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('on', 'off', 'y', 'n', 'yes', 'No', 'null', '~', '.', '0777', '1:20', '1_000', '2026-05-01', '1e5', '- a', 'a: b', '#c', "it's", ' lead', 'trail ', 'a\nb\n', 'x\n\n', '\u2028', '\u0085', '\ufeff'),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null)
  ),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }))
})).node

describe('YAML emitter', () => {
  it('writes any value so that a YAML 1.1 reader and our own parser get it back unchanged', () => {
    fc.assert(fc.property(value, (v) => {
      const text = emitYaml(v)
      const normal = (x: unknown) => JSON.parse(JSON.stringify(x, (_k, val) => Object.is(val, -0) ? 0 : val))
      expect(normal(parseAllDocuments(text, { version: '1.1' })[0]?.toJS())).toEqual(normal(v))
      expect(normal(parseYamlStream(text)[0]?.value)).toEqual(normal(v))
    }), { numRuns: 400 })
  })

  it('writes a stream of documents separated by --- and nothing for an empty list', () => {
    expect(emitYamlStream([])).toBe('')
    expect(emitYamlStream([{ a: 1 }, { b: [] }])).toBe('a: 1\n---\nb: []\n')
    expect(parseYamlStream(emitYamlStream([{ a: 1 }, 'x', [1]])).map((d) => d.value)).toEqual([{ a: 1 }, 'x', [1]])
  })
})

describe('Python-compatible JSON', () => {
  it('serialises like json.dumps (separators, ASCII escapes, key order)', () => {
    expect(pyJsonDumps({ b: [1, 'é'], a: { c: null, d: true } })).toBe('{"b": [1, "\\u00e9"], "a": {"c": null, "d": true}}')
    expect(pyJsonDumps({ b: 1, a: 2 }, true)).toBe('{"a": 2, "b": 1}')
    expect(redactionHash('hunter2')).toBe('4ddbb67bf993867e13253c146a339ed3b33ea5b895543569278e99d5b3c2b7d5')
  })
})

describe('floats with whole-number values', () => {
  const FLOATS = 'one: 1.0\nthousand: 1.0e+3\nint: 1\nhalf: 1.5\nneg_zero: -0.0\nbig: 1.0e+16\nsixty: 1:30.0\n'

  it('keeps them floats: json.dumps writes 1.0, str() gives 1.0, the emitter writes 1.0', () => {
    const value = parseYamlStream(FLOATS)[0]?.value
    expect(pyJsonDumps(value)).toBe('{"one": 1.0, "thousand": 1000.0, "int": 1, "half": 1.5, "neg_zero": -0.0, "big": 1e+16, "sixty": 90.0}')
    expect(redactionHash((value as Record<string, unknown>).one)).toBe('d0ff5974b6aa52cf562bea5921840c032a860a91a3512f7fe8f768f6bbe005f6')
    expect(pyStr((value as Record<string, unknown>).thousand)).toBe('1000.0')
    expect(pyStr(value)).toBe("{'one': 1.0, 'thousand': 1000.0, 'int': 1, 'half': 1.5, 'neg_zero': -0.0, 'big': 1e+16, 'sixty': 90.0}")
    const text = emitYaml(value)
    expect(text).toBe('one: 1.0\nthousand: 1000.0\nint: 1\nhalf: 1.5\nneg_zero: -0.0\nbig: 1.0e+16\nsixty: 90.0\n')
    expect(pyJsonDumps(parseYamlStream(text)[0]?.value)).toBe(pyJsonDumps(value))
    expect(parseAllDocuments(text, { version: '1.1' })[0]?.toJS()).toEqual({ one: 1, thousand: 1000, int: 1, half: 1.5, neg_zero: -0, big: 1e16, sixty: 90 })
  })
})

describe('live sets over a long history', () => {
  it('finds the live documents when superseded copies far outnumber them', async () => {
    const app = await buildTestApp()
    for (let i = 0; i < 80; i++) await put(app, 'b', doc({ name: 'a', layer: 'site', data: { i } }) + (i % 2 === 0 ? doc({ name: 'odd', layer: 'site' }) : ''))
    const latest = docsOf(await get(app, '/revisions/80/documents'))
    expect(latest.map((d) => [d.metadata.name, d.data])).toEqual([['a', { i: 79 }]])
    const older = docsOf(await get(app, '/revisions/79/documents'))
    expect(older.map((d) => [d.metadata.name, d.data])).toEqual([['a', { i: 78 }], ['odd', {}]])
  })
})
