// The revision list read in pieces: the same revisions as parsing the answer whole, in every layout, with each
// entry parsed once while its text is unchanged, and anything it cannot split parsed whole.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { emitYaml } from '@slipway/stub-store'
import { parseYamlDocument, parseYamlDocuments } from '@slipway/common'
import { createRevisionListReader, entryTexts } from '../../src/clients/revision-list.ts'

interface Entry { id: number, tags: string[] }

/** One document, as the store client reads the list: a second one is refused. */
function oneDocument (text: string): unknown {
  const documents = parseYamlDocuments(text)
  if (documents.length > 1) throw new Error(`${documents.length} YAML documents`)
  return documents[0] ?? null
}

const isItem = (text: string): boolean => /^ *- /.test(text)

/** A reader that records what it parses: `parsed` the entries and whole texts, `frames` what surrounds a list. */
function countingReader () {
  const parsed: string[] = []
  const frames: string[] = []
  let reading = ''
  const inner = createRevisionListReader<Entry>({
    parse: (text) => { (isItem(text) || text === reading ? parsed : frames).push(text); return oneDocument(text) },
    toItem: (entry) => ({ id: Number((entry as Entry).id), tags: (entry as Entry).tags })
  })
  const reader = { read: async (text: string) => { reading = text; return await inner.read(text) } }
  return { reader, parsed, frames }
}

const wholeResults = (text: string): unknown => (oneDocument(text) as { results: Entry[] }).results
  .map((e) => ({ id: Number(e.id), tags: e.tags }))

const revisions = (n: number, tagged: Record<number, string[]> = {}) => ({
  count: n,
  results: Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    createdAt: `2026-05-01T10:00:${String(i % 60).padStart(2, '0')}.123456`,
    buckets: [`site-${i % 3}`],
    tags: tagged[i + 1] ?? []
  }))
})

// Deckhand's answer as PyYAML writes it: document start, keys sorted, paging fields around the list
const DECKHAND = `---
count: 3
next: null
prev: null
results:
- buckets:
  - site
  createdAt: '2026-05-01T10:00:01.123456'
  id: 1
  tags: []
  url: http://deckhand/api/v1.0/revisions/1
  validationPolicies: []
- buckets:
  - site
  createdAt: '2026-05-01T10:00:02.123456'
  id: 2
  tags:
  - committed
  url: http://deckhand/api/v1.0/revisions/2
  validationPolicies: []
- buckets:
  - secrets
  createdAt: '2026-05-01T10:00:03.123456'
  id: 3
  tags: []
  url: http://deckhand/api/v1.0/revisions/3
  validationPolicies: []
`

describe('the revision list read in pieces', () => {
  it('reads the same revisions as a whole parse in the stand-in\'s, Deckhand\'s and indented layouts', async () => {
    const layouts = {
      'stand-in': emitYaml(revisions(40, { 2: ['committed'], 7: ['committed', 'site-action-success'] })),
      deckhand: DECKHAND,
      indented: stringify(revisions(12, { 3: ['committed'] }), { indentSeq: true }),
      'results last, with a trailing comment': 'count: 2\nresults:\n- id: 1\n  tags: [a]\n\n# end\n- id: 2\n  tags: []\n',
      'a key after the list': 'results:\n- id: 5\n  tags:\n  - x\ncount: 1\n...\n'
    }
    for (const [layout, text] of Object.entries(layouts)) {
      const { reader, parsed } = countingReader()
      expect(await reader.read(text), layout).toEqual(wholeResults(text))
      // split into one parse per entry, never the whole text
      expect(parsed.length, layout).toBe((wholeResults(text) as unknown[]).length)
      expect(parsed.every((piece) => piece.trimStart().startsWith('- ')), layout).toBe(true)
    }
  })

  it('parses an entry again only when its text changes, and forgets entries the list no longer holds', async () => {
    const { reader, parsed } = countingReader()
    const first = emitYaml(revisions(50, { 10: ['committed'] }))
    const firstRead = await reader.read(first)
    expect(parsed).toHaveLength(50)

    parsed.length = 0
    expect(await reader.read(first)).toEqual(firstRead)
    expect(parsed).toHaveLength(0)

    // a commit: revision 51 written and tagged, revision 10 tagged again
    parsed.length = 0
    const next = emitYaml(revisions(51, { 10: ['committed', 'site-action-success'], 51: ['committed'] }))
    const nextRead = await reader.read(next)
    expect(nextRead).toEqual(wholeResults(next))
    expect(parsed.map((piece) => (parseYamlDocument(piece) as Entry[])[0]?.id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([10, 51])
    // an unchanged entry is handed out again as it was
    expect(nextRead[0]).toBe(firstRead[0])

    // after a purge the list holds one new revision; what it held before is not kept
    await reader.read(emitYaml(revisions(1, { 1: ['committed'] })))
    parsed.length = 0
    await reader.read(next)
    expect(parsed).toHaveLength(51)
  })

  it('parses whole what it cannot split: a flow list, an entry using another\'s anchor, no results', async () => {
    const cases = {
      flow: 'count: 2\nresults: [{id: 1, tags: []}, {id: 2, tags: [committed]}]\n',
      anchors: 'results:\n- id: 1\n  tags: &shared\n  - committed\n- id: 2\n  tags: *shared\n',
      'results on the next line': 'results:\n  [{id: 3, tags: []}]\n',
      empty: 'count: 0\nresults: []\n'
    }
    for (const [name, text] of Object.entries(cases)) {
      const { reader, parsed } = countingReader()
      expect(await reader.read(text), name).toEqual(wholeResults(text))
      expect(parsed.at(-1), name).toBe(text)
    }
    const { reader } = countingReader()
    expect(await reader.read('count: 0\nresults:\n')).toEqual([])
    expect(await reader.read('count: 0\n')).toEqual([])
  })

  it('keeps no answer alive through the entries it keeps', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    // as the store client keeps them: values parsed from the entry's text (a date, the tags)
    const reader = createRevisionListReader({ parse: parseYamlDocument, toItem: (entry) => entry })
    gc()
    const before = process.memoryUsage().heapUsed
    // 400 reads of a list one revision longer each time: each entry is parsed from a different answer; had each kept
    // its answer alive, that is 400 answers of 100 to 40,000 characters, about 16 MB
    for (let n = 1; n <= 400; n++) await reader.read(emitYaml(revisions(n)))
    gc()
    const grown = process.memoryUsage().heapUsed - before
    expect(await reader.read(emitYaml(revisions(400)))).toHaveLength(400)
    expect(grown).toBeLessThan(4 * 2 ** 20)
  })

  it('throws as a whole parse does when an entry is not YAML', async () => {
    const { reader } = countingReader()
    await expect(reader.read('results:\n- id: 1\n  tags: [unclosed\n- id: 2\n  tags: []\n')).rejects.toThrow()
  })

  it('finds each item\'s text, comments and blank lines kept with the item before them', () => {
    expect(entryTexts('count: 2\nresults:\n- id: 1\n\n  tags: []\n# note\n- id: 2\ncount: 2\n'))
      .toEqual(['- id: 1\n\n  tags: []\n# note\n', '- id: 2\n'])
    expect(entryTexts('results:\n  - id: 1\n  - id: 2\n')).toEqual(['  - id: 1\n', '  - id: 2\n'])
    expect(entryTexts('results: []\n')).toBeUndefined()
    expect(entryTexts('count: 1\n')).toBeUndefined()
    expect(entryTexts('  results:\n  - id: 1\n')).toBeUndefined()
  })
})
