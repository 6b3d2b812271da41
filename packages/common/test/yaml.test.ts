import { describe, expect, it } from 'vitest'
import { parseYamlDocument, parseYamlDocuments, YamlError } from '../src/yaml.ts'

describe('parseYamlDocuments', () => {
  it('resolves plain scalars as PyYAML does (YAML 1.1)', () => {
    const [doc] = parseYamlDocuments('dot: .\ny: y\nn: n\nword_yes: yes\nword_off: off\noctal: 0755\nzero9: 09\nexp: 1e5\nfloat: 1.5e+3\nsep: 1_000\nnothing: ~\n')
    expect(doc).toEqual({ dot: '.', y: 'y', n: 'n', word_yes: true, word_off: false, octal: 493, zero9: '09', exp: '1e5', float: 1500, sep: 1000, nothing: null })
  })

  it('reads keys with the same rules, as PyYAML does', () => {
    expect(parseYamlDocument('yes: 1\n')).toEqual({ true: 1 })
  })

  it('skips empty documents and comment-only streams', () => {
    expect(parseYamlDocuments('---\n# nothing\n---\na: 1\n---\n')).toEqual([{ a: 1 }])
    expect(parseYamlDocuments('# only a comment\n')).toEqual([])
    expect(parseYamlDocument('')).toBeNull()
  })

  it('refuses syntax errors, duplicate keys and alias bombs with a YamlError', () => {
    expect(() => parseYamlDocuments('a: [1, 2\n')).toThrow(YamlError)
    expect(() => parseYamlDocuments('a: 1\na: 2\n')).toThrow(YamlError)
    expect(parseYamlDocuments('a: 1\na: 2\n', { uniqueKeys: false })).toEqual([{ a: 2 }])
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n')
    expect(() => parseYamlDocuments(bomb)).toThrow(YamlError)
  })
})
