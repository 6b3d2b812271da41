import { describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { ConfigError, describeConfig, readConfig } from '../src/config.ts'
import { isUlid, isUuid, newUlid, newUuid } from '../src/ids.ts'

const Schema = Type.Object({
  PORT: Type.Integer({ default: 9000, minimum: 0, maximum: 65535, description: 'Port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Address' }),
  VERBOSE: Type.Boolean({ default: false, description: 'Chatty' }),
  MODE: Type.Union([Type.Literal('a'), Type.Literal('b')], { default: 'a', description: 'Mode' })
})

describe('readConfig', () => {
  it('applies defaults for unset and empty variables', () => {
    expect(readConfig(Schema, { HOST: '' })).toEqual({ PORT: 9000, HOST: '127.0.0.1', VERBOSE: false, MODE: 'a' })
  })
  it('coerces strings to the declared types', () => {
    expect(readConfig(Schema, { PORT: '0', VERBOSE: 'true', MODE: 'b' })).toEqual({ PORT: 0, HOST: '127.0.0.1', VERBOSE: true, MODE: 'b' })
  })
  it('throws one error naming every bad variable', () => {
    let error: unknown
    try {
      readConfig(Schema, { PORT: 'eighty', MODE: 'c' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as ConfigError).message
    expect(message).toContain('PORT')
    expect(message).toContain('MODE')
    expect((error as ConfigError).problems).toEqual(['PORT: must be integer (got "eighty")', 'MODE: must be one of a, b (got "c")'])
  })
  it('refuses integers written otherwise instead of rounding or reading them as hex', () => {
    for (const port of ['1.9', '0x10', '1e3', ' 80']) {
      expect(() => readConfig(Schema, { PORT: port }), port).toThrow(`PORT: must be integer (got ${JSON.stringify(port)})`)
    }
    expect(readConfig(Schema, { PORT: '8080' }).PORT).toBe(8080)
  })
  it('ignores variables the schema does not name', () => {
    expect(readConfig(Schema, { OTHER: 'x' })).not.toHaveProperty('OTHER')
  })
  it('describes the schema as table rows', () => {
    expect(describeConfig(Schema)).toContain('| `PORT` | `9000` | Port |')
  })
})

describe('ids', () => {
  it('makes 26-character ULIDs that validate and sort by creation', () => {
    const a = newUlid()
    const b = newUlid()
    expect(a).toHaveLength(26)
    expect(isUlid(a)).toBe(true)
    expect(a < b).toBe(true)
  })
  it('rejects strings that are not ULIDs', () => {
    for (const bad of ['', 'nope', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FAVX', '81ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAI', '../../etc/passwd']) {
      expect(isUlid(bad)).toBe(false)
    }
  })
  it('accepts UUIDs with or without hyphens and nothing else', () => {
    expect(isUuid(newUuid())).toBe(true)
    expect(isUuid('123e4567e89b12d3a456426614174000')).toBe(true)
    expect(isUuid('not-a-uuid')).toBe(false)
  })
})
