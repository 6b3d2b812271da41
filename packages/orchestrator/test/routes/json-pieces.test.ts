// The list answer in pieces: together the same JSON as one string, each piece bounded by the limit and one item.
import { describe, expect, it } from 'vitest'
import { jsonPieces } from '../../src/routes/json-pieces.ts'

describe('jsonPieces', () => {
  it('writes the same JSON as one string would, in pieces of about the limit', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ id: `A${i}`, steps: Array.from({ length: i % 7 }, (_, j) => ({ j, state: null })), note: 'é"\\' }))
    const pieces = [...jsonPieces(items, 1024)]
    expect(pieces.join('')).toBe(`${JSON.stringify(items)}\n`)
    expect(pieces.length).toBeGreaterThan(10)
    const longest = Math.max(...items.map((item) => JSON.stringify(item).length)) + 1
    for (const piece of pieces.slice(0, -1)) {
      expect(piece.length).toBeGreaterThanOrEqual(1024)
      expect(piece.length).toBeLessThan(1024 + longest)
    }
  })

  it('writes an empty list and a list of one', () => {
    expect([...jsonPieces([])].join('')).toBe('[]\n')
    expect([...jsonPieces([{ a: 1 }])].join('')).toBe('[{"a":1}]\n')
  })
})
