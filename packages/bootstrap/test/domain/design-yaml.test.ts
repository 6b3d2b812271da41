// Reading a design within bounds of work (issue 25): the same values as the common reader, refused past a number of
// documents or of YAML tokens, syntax errors told by line and column only.
import { describe, expect, it } from 'vitest'
import { parseYamlDocuments } from '@slipway/common'
import { countDocumentStarts, DesignLimitError, DesignYamlError, parseDesignYaml } from '../../src/domain/design-yaml.ts'
import { exampleDesign } from '../helpers/servers.ts'

const WIDE = { maxDocuments: 1_000_000, maxTokens: 100_000_000 }

describe('parseDesignYaml', () => {
  it('reads the example site as the common reader does, with PyYAML 1.1 scalars and empty documents left out', async () => {
    const design = exampleDesign()
    expect(await parseDesignYaml(design, WIDE)).toEqual(parseYamlDocuments(design))
    expect(await parseDesignYaml('---\n---\na: yes\nb: 0o17\nc: 017\nd: y\n...\n', WIDE)).toEqual([{ a: true, b: '0o17', c: 15, d: 'y' }])
  })

  it('tells a syntax error by its line and column, quoting nothing of the design', async () => {
    const error = await parseDesignYaml('a: 1\n---\nsecret: hunter2\n  oops: [unclosed\n', WIDE).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DesignYamlError)
    expect((error as Error).message).toMatch(/^The design is not valid YAML \(line \d+, column \d+\)$/)
    expect((error as Error).message).not.toContain('hunter2')
  })

  it('keeps the alias bound of the common reader', async () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 6 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n')
    await expect(parseDesignYaml(laughs, WIDE)).rejects.toThrow(DesignYamlError)
  })

  it('refuses more document-start lines than the bound before reading any document', async () => {
    const design = 'schema: x\n' + '---\n{}\n'.repeat(11)
    expect(countDocumentStarts(design, 10)).toBe(11)
    expect(countDocumentStarts(design, 100)).toBe(11)
    const error = await parseDesignYaml(design, { maxDocuments: 10, maxTokens: 1_000_000 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DesignLimitError)
    expect((error as DesignLimitError).errorType).toBe('InvalidFormatError')
    expect((error as Error).message).toBe('The design has more than 10 documents, the most this service reads (DESIGN_MAX_DOCUMENTS)')
    // exactly the bound is read
    await expect(parseDesignYaml('---\n{}\n'.repeat(10), { maxDocuments: 10, maxTokens: 1_000_000 })).resolves.toHaveLength(10)
  })

  it('counts documents that start without a document-start line, after an end marker', async () => {
    const design = 'a: 1\n...\n'.repeat(11)
    expect(countDocumentStarts(design, 10)).toBe(0)
    await expect(parseDesignYaml(design, { maxDocuments: 10, maxTokens: 1_000_000 })).rejects.toThrow('more than 10 documents')
    await expect(parseDesignYaml(design, { maxDocuments: 11, maxTokens: 1_000_000 })).resolves.toHaveLength(11)
  })

  it('refuses a design that takes more YAML tokens to read than the bound', async () => {
    const design = `data: [${Array.from({ length: 500 }, (_, i) => `v${i}`).join(', ')}]\n`
    const error = await parseDesignYaml(design, { maxDocuments: 10, maxTokens: 999 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DesignLimitError)
    expect((error as Error).message).toBe('The design takes more than 999 YAML tokens to read, the most this service reads (DESIGN_MAX_TOKENS)')
    await expect(parseDesignYaml(design, { maxDocuments: 10, maxTokens: 100_000 })).resolves.toHaveLength(1)
  })

  it('gives the event loop turns while it reads', async () => {
    let turns = 0
    let reading = true
    const count = (): void => { if (reading) { turns++; setImmediate(count) } }
    setImmediate(count)
    // slices of 0 ms: a turn after every 1024 tokens
    await parseDesignYaml('---\n{a: 1, b: [2, 3]}\n'.repeat(1000), WIDE, 0)
    reading = false
    expect(turns).toBeGreaterThan(5)
  })
})
