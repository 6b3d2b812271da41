import { Type } from 'typebox'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServiceApp, acceptAllBodiesAsText } from '../src/fastify/service-app.ts'
import { JSON_MAX_DEPTH, jsonNestedDeeperThan, readJsonBodies } from '../src/fastify/input.ts'
import { SeedBooleanSchema, VerbositySchema, VersionNameSchema } from '../src/schemas.ts'
import { isErrorBody } from '../src/testing/index.ts'

const BodySchema = Type.Object({
  name: Type.String({ minLength: 1, 'x-invalid': { message: 'name must be a string' }, 'x-missing': { message: 'name is required' } }),
  labels: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()], { 'x-invalid': { message: "label '{name}' must be a string or null" } })))
}, {
  'x-invalid': { message: 'the body must be an object' },
  'x-missing': { message: 'Json body is required' },
  'x-unsupported': { message: 'Invalid content type', reason: 'got {contentType}' },
  'x-undecodable': { message: 'JSON could not be decoded', reason: '{path}: {detail}' }
})

async function buildTestApp (options: { jsonMaxDepth?: number } = {}) {
  const app = createServiceApp({ service: 'test', logger: false, formats: { even: (v) => Number(v) % 2 === 0 }, ...options })
  acceptAllBodiesAsText(app)
  app.get('/v1.0/things/:id', {
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 3, 'x-invalid': { message: 'Invalid id', reason: "got '{value}' for {name}", errorType: 'InvalidFormatError', listParameter: true } }) }),
      querystring: Type.Object({
        verbosity: Type.Optional(VerbositySchema),
        force: Type.Optional(SeedBooleanSchema('force', 'Force it')),
        version: Type.Optional(VersionNameSchema),
        n: Type.Optional(Type.String({ format: 'even' })),
        tags: Type.Optional(Type.Array(Type.String()))
      })
    }
  }, async (request) => ({ query: request.query }))
  await app.register(async (json) => {
    readJsonBodies(json)
    json.post('/v1.0/things', { schema: { body: BodySchema } }, async (request) => ({ body: request.body }))
    json.post('/v1.0/checks', { config: { invalidInput: { validationMessage: 'Checks failed' } }, schema: { body: BodySchema } }, async () => ({}))
  })
  app.post('/v1.0/text', async (request) => ({ text: request.body }))
  onTestFinished(async () => { await app.close() })
  return app
}

describe('query strings by their schema', () => {
  it('decodes booleans, verbosity and version names into typed values, with defaults, the last of repeated values kept', async () => {
    const app = await buildTestApp()
    expect((await app.inject({ url: '/v1.0/things/abc' })).json().query).toEqual({ verbosity: 1, force: false, version: 'buffer' })
    const res = await app.inject({ url: '/v1.0/things/abc?force=YES&verbosity=0&verbosity=4&version=Committed&tags=a&tags=b' })
    expect(res.json().query).toEqual({ verbosity: 4, force: true, version: 'committed', tags: ['a', 'b'] })
  })

  it.each([
    ['verbosity=6', 'Invalid verbosity parameter', 'If specified, verbosity parameter should be a value from 0 to 5'],
    ['verbosity=01', 'Invalid verbosity parameter', 'If specified, verbosity parameter should be a value from 0 to 5'],
    ['force=maybe', 'Invalid force parameter', "force must be one of true, false (or t/f, yes/no, y/n, 1/0, on/off), got 'maybe'"],
    ['version=tomorrow', 'Invalid version query parameter specified', 'version must be buffer, committed, last_site_action, successful_site_action']
  ])('answers %s with the wording its schema carries', async (query, message, reason) => {
    const app = await buildTestApp()
    const res = await app.inject({ url: `/v1.0/things/abc?${query}` })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message, reason, code: '400 Bad Request' })
  })

  it('fills in the value and the parameter name, lists the parameter when asked, and checks the service\'s formats', async () => {
    const app = await buildTestApp()
    const res = await app.inject({ url: '/v1.0/things/ab' })
    expect(res.json()).toMatchObject({ message: 'Invalid id', reason: "got 'ab' for id", details: { errorType: 'InvalidFormatError', errorList: [{ message: 'Invalid id', parameter: 'id', error: true }] } })
    const odd = await app.inject({ url: '/v1.0/things/abc?n=3' })
    expect(odd.statusCode).toBe(400)
    expect(isErrorBody(odd.json())).toBe(true)
  })
})

describe('JSON bodies', () => {
  const post = async (url: string, payload: string | undefined, type?: string) => {
    const app = await buildTestApp()
    return await app.inject({ method: 'POST', url, payload, headers: type === undefined ? {} : { 'content-type': type } })
  }

  it('reads a JSON body of application/json with or without parameters', async () => {
    expect((await post('/v1.0/things', '{"name":"x"}', 'application/json; charset=utf-8')).json()).toEqual({ body: { name: 'x' } })
  })

  it.each([
    ['no body', undefined, undefined, 'Json body is required'],
    ['an empty JSON body', '', 'application/json', 'Json body is required'],
    ['another content type', '{"name":"x"}', 'text/plain', 'Invalid content type'],
    ['a body that is not JSON', '{"name":', 'application/json', 'JSON could not be decoded'],
    ['a __proto__ key', '{"name":"x","__proto__":{"a":1}}', 'application/json', 'JSON could not be decoded'],
    ['a constructor.prototype key', '{"name":"x","constructor":{"prototype":{"a":1}}}', 'application/json', 'JSON could not be decoded'],
    ['a list', '["x"]', 'application/json', 'the body must be an object'],
    ['null', 'null', 'application/json', 'the body must be an object'],
    ['no name', '{}', 'application/json', 'name is required'],
    ['an empty name', '{"name":""}', 'application/json', 'name must be a string'],
    ['a label that is a number', '{"name":"x","labels":{"a":1}}', 'application/json', "label 'a' must be a string or null"]
  ])('answers %s with the body schema\'s wording', async (_what, payload, type, message) => {
    const res = await post('/v1.0/things', payload, type)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message, status: 'Failure' })
  })

  it('fills the path, the parser\'s words and the content type in', async () => {
    expect((await post('/v1.0/things', '{"name":', 'application/json')).json().reason).toMatch(/^\/v1\.0\/things: ./)
    expect((await post('/v1.0/things', 'x', 'text/yaml')).json().reason).toBe('got text/yaml')
  })

  it('answers bad input as a validation Status body on a route that asks for it', async () => {
    const res = await post('/v1.0/checks', '{}', 'application/json')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', message: 'Checks failed', reason: 'Validation', details: { errorCount: 1, messageList: [{ name: 'name is required', error: true }] } })
  })

  it('leaves other routes reading bodies as text', async () => {
    expect((await post('/v1.0/text', '{"a":', 'application/json')).json()).toEqual({ text: '{"a":' })
  })
})

/** `{"name":"x","extra":[[…]]}` with the outer object and the lists `depth` levels deep in all. */
const nested = (depth: number): string => `{"name":"x","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`

describe('the depth of JSON bodies', () => {
  it('counts the nesting of objects and arrays, not brackets inside strings', () => {
    expect(jsonNestedDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false)
    expect(jsonNestedDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true)
    expect(jsonNestedDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false)
    // a string ending in a backslash, and one with an escaped quote before brackets
    expect(jsonNestedDeeperThan(JSON.stringify({ a: '\\', b: [[1]] }), 3)).toBe(false)
    expect(jsonNestedDeeperThan(JSON.stringify({ a: '\\', b: [[1]] }), 2)).toBe(true)
    expect(jsonNestedDeeperThan(JSON.stringify({ a: '\\"[[[[' }), 1)).toBe(false)
    expect(jsonNestedDeeperThan('[1, 2, 3]', 1)).toBe(false)
    expect(jsonNestedDeeperThan('"[[["', 0)).toBe(false)
  })

  it(`accepts a body ${JSON_MAX_DEPTH} levels deep and refuses one a level deeper, and 3,000 deep, with a 400 naming the bound`, async () => {
    const app = await buildTestApp()
    const post = async (payload: string) => await app.inject({ method: 'POST', url: '/v1.0/things', payload, headers: { 'content-type': 'application/json' } })
    expect((await post(nested(JSON_MAX_DEPTH))).statusCode).toBe(200)
    for (const depth of [JSON_MAX_DEPTH + 1, 3000]) {
      const res = await post(nested(depth))
      expect(res.statusCode).toBe(400)
      expect(isErrorBody(res.json())).toBe(true)
      expect(res.json()).toMatchObject({
        message: 'JSON nested too deeply',
        reason: `/v1.0/things: the body nests objects and arrays more than ${JSON_MAX_DEPTH} levels deep; at most ${JSON_MAX_DEPTH} are accepted`,
        code: '400 Bad Request',
        details: { errorType: 'InvalidFormatError' }
      })
    }
  })

  it('takes the service\'s own bound, and answers as a validation Status body on a route that asks for it', async () => {
    const app = await buildTestApp({ jsonMaxDepth: 3 })
    const post = async (url: string, payload: string) => await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } })
    expect((await post('/v1.0/things', nested(3))).statusCode).toBe(200)
    expect((await post('/v1.0/things', nested(4))).json()).toMatchObject({ message: 'JSON nested too deeply', reason: expect.stringContaining('more than 3 levels') })
    const check = await post('/v1.0/checks', nested(4))
    expect(check.statusCode).toBe(400)
    expect(check.json()).toMatchObject({ kind: 'Status', message: 'Checks failed', details: { errorCount: 1, messageList: [{ name: 'JSON nested too deeply', error: true }] } })
  })
})
