// A document may hold any key, `__proto__` and `constructor` included: the store keeps them as data through parsing,
// storage, layering and substitution, and never writes through them into an object's prototype.
import { afterEach, describe, expect, it } from 'vitest'
import { emitYaml, parseSlowly, parseYamlStream } from '../src/yaml/codec.ts'
import { buildTestApp, doc, layeringPolicy, put, rendered } from './helpers/app.ts'

const withProto = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>
const polluted = (): unknown[] => ['p', 'c', 'polluted', 'x'].map((key) => (({}) as Record<string, unknown>)[key])

afterEach(() => {
  // a failure here would poison every later test of this worker, so say it plainly
  expect(polluted(), 'Object.prototype was written').toEqual([undefined, undefined, undefined, undefined])
})

describe('keys named like prototype properties', () => {
  it('are read back as own keys by both parsers', () => {
    const value = withProto('{"__proto__": {"a": 1}, "constructor": {"b": [2]}, "c": 3}')
    const text = emitYaml(value)
    expect(text).toBe('__proto__:\n  a: 1\nconstructor:\n  b:\n  - 2\nc: 3\n')
    const fast = parseYamlStream(text)[0]?.value as Record<string, unknown>
    expect(Object.keys(fast)).toEqual(['__proto__', 'constructor', 'c'])
    expect(Object.getPrototypeOf(fast)).toBe(Object.prototype)
    expect(JSON.stringify(fast)).toBe(JSON.stringify(value))
    // an alias sends a stream to the yaml package's reading
    const slow = parseSlowly('a: &x 1\n__proto__: {b: *x}\n')[0]?.value as Record<string, unknown>
    expect(Object.keys(slow)).toEqual(['a', '__proto__'])
    expect(JSON.stringify(slow)).toBe('{"a":1,"__proto__":{"b":1}}')
  })

  it('are stored, layered and substituted as data, never into the prototype', async () => {
    const app = await buildTestApp()
    const body = layeringPolicy(['global', 'site']) + [
      doc({ schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { v: 'x' } }),
      doc({ name: 'p', layer: 'global', abstract: true, labels: { k: 'v' }, data: withProto('{"__proto__": {"p": 1}, "keep": 1}') }),
      doc({
        name: 'c',
        layer: 'site',
        parentSelector: { k: 'v' },
        actions: [{ method: 'merge', path: '.' }],
        substitutions: [{ src: { schema: 'src/Values/v1', name: 'vals', path: '.v' }, dest: { path: '.constructor.polluted' } }],
        data: withProto('{"__proto__": {"c": 2}}')
      })
    ].join('')
    expect((await put(app, 'site', body)).statusCode).toBe(200)
    const child = (await rendered(app, 1)).c.data as Record<string, unknown>
    expect(Object.keys(child).sort()).toEqual(['__proto__', 'constructor', 'keep'])
    expect(Object.getOwnPropertyDescriptor(child, '__proto__')?.value).toEqual({ p: 1, c: 2 })
    expect(child.constructor).toEqual({ polluted: 'x' })
    expect(child.keep).toBe(1)
  })

  it('are copied as data by a substitution of a whole mapping into the data itself', async () => {
    const app = await buildTestApp()
    const body = layeringPolicy(['site']) + [
      doc({ schema: 'src/Values/v1', name: 'vals', layer: 'site', data: { m: withProto('{"__proto__": {"x": 1}, "y": 2}') } }),
      doc({ name: 'd', layer: 'site', substitutions: [{ src: { schema: 'src/Values/v1', name: 'vals', path: '.m' }, dest: { path: '.' } }], data: { own: 1 } })
    ].join('')
    expect((await put(app, 'site', body)).statusCode).toBe(200)
    const data = (await rendered(app, 1)).d.data as Record<string, unknown>
    expect(Object.keys(data)).toEqual(['own', '__proto__', 'y'])
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ x: 1 })
  })
})
