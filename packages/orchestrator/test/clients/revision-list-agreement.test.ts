// The revision list read in pieces agrees with a whole parse of the answer, or refuses as it does: for generated lists
// in the stand-in's and in PyYAML's (Deckhand's) layout, with what may follow a list (a key, a comment, a document
// end, a second document, a second `results`, text that is not YAML) — and it lets other work run while it parses.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { emitYaml } from '@slipway/stub-store'
import { parseYamlDocuments } from '@slipway/common'
import { createRevisionListReader } from '../../src/clients/revision-list.ts'

/** One document, as the store client reads the list: a second one is refused. */
function oneDocument (text: string): unknown {
  const documents = parseYamlDocuments(text)
  if (documents.length > 1) throw new Error(`${documents.length} YAML documents`)
  return documents[0] ?? null
}

const newReader = () => createRevisionListReader({ parse: oneDocument, toItem: (entry) => entry })

/** What a whole parse reads: the `results` list, or an error. */
function whole (text: string): { items: unknown[] } | { refused: true } {
  try {
    const results = (oneDocument(text) as { results?: unknown } | null)?.results
    return { items: Array.isArray(results) ? results : [] }
  } catch {
    return { refused: true }
  }
}

async function piecewise (reader: ReturnType<typeof newReader>, text: string): Promise<{ items: unknown[] } | { refused: true }> {
  try {
    return { items: await reader.read(text) }
  } catch {
    return { refused: true }
  }
}

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/)
// tags a YAML writer has to quote or that look like YAML of their own
const tag = fc.oneof(name, fc.constantFrom('committed', 'site-action-success', 'a: b', '- x', '# not a comment', "it's", '---', '...', 'results:', ''))
const entry = fc.record({
  id: fc.nat({ max: 100_000 }),
  createdAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '')),
  buckets: fc.array(name, { maxLength: 3 }),
  tags: fc.array(tag, { maxLength: 3 })
})

/** The stand-in's layout (its own writer), and PyYAML's as Deckhand answers: document start, keys sorted, paging fields. */
const layouts = {
  'stand-in': (results: unknown[]) => emitYaml({ count: results.length, results }),
  pyyaml: (results: unknown[]) => '---\n' + stringify({
    count: results.length,
    next: null,
    prev: null,
    results: results.map((r) => ({ ...(r as object), url: 'http://deckhand/api/v1.0/revisions/1', validationPolicies: [] }))
  }, { indentSeq: false, sortMapEntries: true, singleQuote: true })
}

// what may follow the list: sound YAML, or what a whole parse refuses or reads differently
const after = fc.constantFrom('', 'extra: 1\n', '# the end\n', '...\n', '---\nresults: []\n', 'results:\n- id: 9\n',
  '}garbage: [\n', '  - id: 7\n', '- id: 8\n  tags: []\n', '\t- x\n', 'count: 2\ncount: 3\n', '  extra: 1\n')

describe('the revision list read in pieces and a whole parse', () => {
  it.each(Object.entries(layouts))('agree on generated lists in the %s layout, whatever follows the list', async (_layout, write) => {
    await fc.assert(fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 12 }), after, async (results, suffix) => {
      const text = write(results) + suffix
      // a fresh reader, and one that has read the list without the suffix (its entries kept)
      expect(await piecewise(newReader(), text)).toEqual(whole(text))
      const warm = newReader()
      await piecewise(warm, write(results))
      expect(await piecewise(warm, text)).toEqual(whole(text))
    }), { numRuns: 150 })
  })

  it.each([
    ['a second YAML document after the list', 'results:\n- id: 1\n  tags: []\n---\nresults:\n- id: 2\n  tags: []\n', '2 YAML documents'],
    ['a duplicated results key', 'results:\n- id: 1\n  tags: []\nresults:\n- id: 2\n  tags: []\n', 'Map keys must be unique'],
    ['garbage after the list', 'count: 1\nresults:\n- id: 1\n  tags: []\n}garbage: [\n', 'Unexpected flow-map-end token']
  ])('refuses %s, as a whole parse does', async (_name, text, why) => {
    expect(() => oneDocument(text)).toThrow(why)
    await expect(newReader().read(text)).rejects.toThrow(why)
  })

  it('lets other work run between slices while it parses a long list for the first time', async () => {
    const text = emitYaml({
      count: 4000,
      results: Array.from({ length: 4000 }, (_, i) => ({ id: i + 1, createdAt: `2026-05-01T10:00:00.${String(i).padStart(6, '0')}`, tags: [] }))
    })
    // other work: a callback that runs on every turn of the event loop until the read ends
    let turns = 0
    let reading = true
    const turn = () => { turns++; if (reading) setImmediate(turn) }
    setImmediate(turn)
    const items = await newReader().read(text)
    reading = false
    expect(items).toHaveLength(4000)
    expect(turns).toBeGreaterThan(1)
  })
})
