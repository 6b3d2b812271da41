import { Type } from 'typebox'
import { describe, expect, it, onTestFinished } from 'vitest'
import { emptyObjectDefaults, lazyValidators } from '../src/fastify/validators.ts'
import { createServiceApp } from '../src/fastify/service-app.ts'
import { SeedBooleanSchema, VerbositySchema } from '../src/schemas.ts'

const Query = () => Type.Object({ verbosity: Type.Optional(VerbositySchema), n: Type.Optional(Type.Integer()) })

describe('route validators', () => {
  it('compile nothing until a route is called, then each distinct schema once', () => {
    const validators = lazyValidators()
    // two routes declaring the same query schema as separate objects, and a body schema
    const first = validators.forRoute(Query(), 'querystring')
    const second = validators.forRoute(Query(), 'querystring')
    const body = validators.forRoute(Type.Object({ name: Type.String() }), 'body')
    expect(validators.compiledCount()).toBe(0)

    expect(first({ verbosity: '2' })).toBe(true)
    expect(validators.compiledCount()).toBe(1)
    expect(second({ n: 'x' })).toBe(false)
    expect(second.errors?.[0]).toMatchObject({ keyword: 'type', instancePath: '/n' })
    expect(validators.compiledCount()).toBe(1)
    expect(body({ name: 'a' })).toBe(true)
    expect(validators.compiledCount()).toBe(2)
  })

  it('take a request without a query string without ajv, exactly as ajv would, when every empty query is valid', () => {
    const validators = lazyValidators()
    const eligible = [
      Query(),
      Type.Object({ verbosity: Type.Optional(VerbositySchema), force: Type.Optional(SeedBooleanSchema('force', 'Force it')) }),
      Type.Object({ n: Type.Optional(Type.Integer({ minimum: 3 })), tag: Type.Optional(Type.String({ default: 'x' })) }, { description: 'd', additionalProperties: false }),
      Type.Object({})
    ]
    for (const schema of eligible) {
      const byAjv: Record<string, unknown> = {}
      expect(validators.compile(schema, 'querystring')(byAjv)).toBe(true)
      const fast: Record<string, unknown> = {}
      const before = validators.compiledCount()
      expect(validators.forRoute(schema, 'querystring')(fast)).toBe(true)
      expect(validators.compiledCount()).toBe(before)
      expect(fast).toEqual(byAjv)
    }
    expect(emptyObjectDefaults(eligible[0])).toEqual([['verbosity', '1']])
    // what only ajv can tell: a required property, a default that is not a string or misses its pattern, other keywords
    for (const schema of [
      Type.Object({ id: Type.String() }),
      Type.Object({ n: Type.Optional(Type.Integer({ default: 1 })) }),
      Type.Object({ v: Type.Optional(Type.String({ pattern: '^[0-5]$', default: '9' })) }),
      Type.Object({ v: Type.Optional(Type.String({ minLength: 2, default: 'ab' })) }),
      Type.Object({}, { minProperties: 1 }),
      Type.Array(Type.String())
    ]) expect(emptyObjectDefaults(schema), JSON.stringify(schema)).toBeUndefined()
    const required = validators.forRoute(Type.Object({ id: Type.String() }), 'querystring')
    expect(required({})).toBe(false)
    expect(required.errors?.[0]).toMatchObject({ keyword: 'required' })
  })

  it('coerce text parts and keep body types, as before', () => {
    const validators = lazyValidators()
    const query: Record<string, unknown> = { n: '7' }
    expect(validators.forRoute(Query(), 'querystring')(query)).toBe(true)
    expect(query.n).toBe(7)
    const body = validators.forRoute(Type.Object({ n: Type.Integer() }), 'body')
    expect(body({ n: '7' })).toBe(false)
    expect(body.errors?.[0]).toMatchObject({ keyword: 'type', instancePath: '/n' })
  })

  it('answer a bad parameter through the service app with the route schema\'s wording on its first call', async () => {
    const app = createServiceApp({ service: 'test', logger: false })
    app.get('/things/:id', {
      schema: { params: Type.Object({ id: Type.String({ minLength: 3, 'x-invalid': { message: 'Invalid id', reason: 'got {value}' } }) }) }
    }, async (request) => ({ id: (request.params as { id: string }).id }))
    onTestFinished(async () => { await app.close() })
    await app.ready()

    const bad = await app.inject({ method: 'GET', url: '/things/ab' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ message: 'Invalid id', details: { messageList: [{ message: 'got ab' }] } })
    const good = await app.inject({ method: 'GET', url: '/things/abc' })
    expect(good.statusCode).toBe(200)
    expect(good.json()).toEqual({ id: 'abc' })
  })
})
