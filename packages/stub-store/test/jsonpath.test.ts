// Where Deckhand's pinned jsonpath-ng reads paths its own way (issue 21): the stand-in either renders exactly what
// Deckhand renders or refuses with a 400 naming the difference — a string indexed like a list, digit-only names,
// and a list substituted into a list index.
import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, doc, docsOf, expectError, get, layeringPolicy, put } from './helpers/app.ts'

const SOURCE = { schema: 'src/Values/v1', name: 'vals', layer: 'site' }
const sub = (path: string, dest: unknown) => ({ src: { schema: SOURCE.schema, name: SOURCE.name, path }, dest })

async function site (sourceYamlData: string, substitutions: unknown[], data: unknown = {}): Promise<FastifyInstance> {
  const app = await buildTestApp()
  const source = `---\nschema: ${SOURCE.schema}\nmetadata: {schema: metadata/Document/v1, name: ${SOURCE.name}, storagePolicy: cleartext, layeringDefinition: {layer: site}}\ndata:\n${sourceYamlData}`
  const res = await put(app, 'site', layeringPolicy(['site']) + source + doc({ schema: 'app/Config/v1', name: 'cfg', layer: 'site', substitutions, data }))
  expect(res.statusCode, res.body).toBe(200)
  return app
}

const cfg = async (app: FastifyInstance) => get(app, '/revisions/1/rendered-documents?metadata.name=cfg')

describe('src.path indexing into a string (Deckhand: the character)', () => {
  it('yields one character, counted in code points as Python does', async () => {
    const app = await site('  word: hello\n  emoji: "\\U0001F680x"\n', [
      sub('.word[0]', { path: '.first' }),
      sub('.word[4]', { path: '.last' }),
      sub('.emoji[1]', { path: '.afterEmoji' })
    ])
    const res = await cfg(app)
    expect(res.statusCode).toBe(200)
    expect(docsOf(res)[0].data).toEqual({ first: 'h', last: 'o', afterEmoji: 'x' })
  })

  it('answers 400 SubstitutionSourceDataNotFound past the string\'s end, as Deckhand finds nothing there', async () => {
    const app = await site('  word: hi\n', [sub('.word[2]', { path: '.c' })])
    const body = expectError(await cfg(app), 400, 'SubstitutionSourceDataNotFound')
    expect(body.message).toBe('Required substitution source secret was not found at path .word[2] in source document [src/Values/v1, site] vals which is referenced by destination document [app/Config/v1, site] cfg under its `metadata.substitutions`.')
  })
})

describe('digit-only member names (Deckhand: mapping keys)', () => {
  it('reads `.ports.8080` from a mapping whose key was written unquoted or quoted, and writes a mapping key', async () => {
    const app = await site("  ports: {8080: web, '9090': admin}\n", [
      sub('.ports.8080', { path: '.byPort.8080' }),
      sub('.ports.9090', { path: '.byPort.9090' })
    ], { byPort: { 8080: 'old' } })
    const res = await cfg(app)
    expect(res.statusCode).toBe(200)
    expect(docsOf(res)[0].data).toEqual({ byPort: { 8080: 'web', 9090: 'admin' } })
    expect(res.body).toContain("'8080': web")
  })

  it('never takes `.0` as a list index: reading answers 400 SubstitutionSourceDataNotFound, writing 400', async () => {
    const read = await site('  list: [a, b]\n', [sub('.list.0', { path: '.x' })])
    expectError(await cfg(read), 400, 'SubstitutionSourceDataNotFound')
    const write = await site('  word: w\n', [sub('.word', { path: '.items.0' })], { items: ['a', 'b'] })
    const body = expectError(await cfg(write), 400, 'SubstitutionDestinationInvalid')
    expect(body.message).toBe("Cannot substitute into [app/Config/v1, site] cfg at .items.0: Cannot set key '0' inside a list")
  })
})

describe('a list substituted into a list index (Deckhand: only its first element)', () => {
  it('answers 400 SubstitutionDestinationInvalid naming the difference, for an existing or a new index', async () => {
    for (const dest of ['.hosts[1]', '.fresh[0]', '.nested[0][2]']) {
      const app = await site('  list: [a, b, c]\n', [sub('.list', { path: dest })], { hosts: ['h0', 'h1', 'h2'] })
      const body = expectError(await cfg(app), 400, 'SubstitutionDestinationInvalid')
      expect(body.message).toBe(`Cannot substitute a list into the list index ${dest} of [app/Config/v1, site] cfg: Deckhand writes only the list's first element there. Substitute into the parent path, or one element with src.path.`)
    }
  })

  it('still substitutes a list into a key, and one element into an index', async () => {
    const app = await site('  list: [a, b, c]\n', [
      sub('.list', { path: '.all' }),
      sub('.list[2]', { path: '.hosts[1]' })
    ], { hosts: ['h0', 'h1'] })
    const res = await cfg(app)
    expect(res.statusCode).toBe(200)
    expect(docsOf(res)[0].data).toEqual({ all: ['a', 'b', 'c'], hosts: ['h0', 'c'] })
  })
})
