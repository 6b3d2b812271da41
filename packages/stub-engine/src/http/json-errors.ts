// Where and why a request body is not JSON, in the words of Python's json decoder, which FastAPI reports in Airflow's
// 422 (`loc: ['body', <position>]`, `ctx.error`): the decoder's message without its position, and the position in
// characters. Scans the text as that decoder does, so that the first error found is the one Python finds.

export interface JsonProblem { message: string, position: number }

const WHITESPACE = new Set([' ', '\t', '\n', '\r'])
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/
const LITERALS = ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity']
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])

class Stop extends Error {
  readonly position: number
  constructor (message: string, position: number) {
    super(message)
    this.position = position
  }
}

/** The problem Python's json.loads reports for `text`, or null when it reads it. */
export function pythonJsonProblem (text: string): JsonProblem | null {
  let at = 0
  const skip = (): void => { while (at < text.length && WHITESPACE.has(text[at]!)) at++ }

  function string (): void {
    const begin = at
    at++
    for (;;) {
      if (at >= text.length) throw new Stop('Unterminated string starting at', begin)
      const c = text[at]!
      if (c === '"') { at++; return }
      if (c < ' ') throw new Stop('Invalid control character at', at)
      if (c === '\\') {
        const escape = text[at + 1]
        if (escape === undefined) throw new Stop('Unterminated string starting at', begin)
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) throw new Stop('Invalid \\uXXXX escape', at + 1)
          at += 6
          continue
        }
        if (!ESCAPES.has(escape)) throw new Stop('Invalid \\escape', at)
        at += 2
        continue
      }
      at++
    }
  }

  function value (): void {
    const c = text[at]
    if (c === '"') { string(); return }
    if (c === '{') { object(); return }
    if (c === '[') { array(); return }
    const literal = LITERALS.find((l) => text.startsWith(l, at))
    if (literal !== undefined) { at += literal.length; return }
    const number = NUMBER.exec(text.slice(at))
    if (number !== null) { at += number[0].length; return }
    throw new Stop('Expecting value', at)
  }

  function object (): void {
    at++
    skip()
    if (text[at] === '}') { at++; return }
    for (;;) {
      if (text[at] !== '"') throw new Stop('Expecting property name enclosed in double quotes', at)
      string()
      skip()
      if (text[at] !== ':') throw new Stop('Expecting \':\' delimiter', at)
      at++
      skip()
      value()
      skip()
      if (text[at] === '}') { at++; return }
      if (text[at] !== ',') throw new Stop('Expecting \',\' delimiter', at)
      at++
      skip()
    }
  }

  function array (): void {
    at++
    skip()
    if (text[at] === ']') { at++; return }
    for (;;) {
      skip()
      value()
      skip()
      if (text[at] === ']') { at++; return }
      if (text[at] !== ',') throw new Stop('Expecting \',\' delimiter', at)
      at++
    }
  }

  try {
    skip()
    value()
    skip()
    if (at < text.length) throw new Stop('Extra data', at)
    return null
  } catch (error) {
    if (error instanceof Stop) return { message: error.message, position: error.position }
    throw error
  }
}
