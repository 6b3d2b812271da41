// Reading a fetched design's YAML within bounds of work, not only of bytes (issue 25): a design is refused at once
// when it has more document-start lines than allowed, and otherwise read one token and one document at a time,
// counting both, so that reading stops as soon as a bound is passed; every few milliseconds of reading give the
// event loop a turn, so that health and other requests are answered while a big design is read.
import { DEFAULT_MAX_ALIAS_COUNT, PYYAML_OPTIONS } from '@slipway/common'
import { Composer, Lexer, LineCounter, Parser, type Document } from 'yaml'
import { DesignLimitError, DesignYamlError } from '../errors.ts'
import type { DesignLimits } from '../types.ts'
import { eventLoopTurns } from './turns.ts'

export { DesignLimitError, DesignYamlError } from '../errors.ts'
export type { DesignLimits } from '../types.ts'

/** Reading goes on for at most this long before the event loop gets a turn. */
const SLICE_MS = 10

const tooManyDocuments = (limit: number): DesignLimitError =>
  new DesignLimitError(`The design has more than ${limit} documents, the most this service reads (DESIGN_MAX_DOCUMENTS)`)

// a line starting `---` and a blank (or ending there) starts a document wherever it stands: not even a block or
// quoted scalar can hold it, so each such line is one more document (or a syntax error)
const DOCUMENT_START = /^---(?=[ \t\r\n]|$)/gm

/** The number of document-start lines in `text`, counted up to `limit + 1` at most. */
export function countDocumentStarts (text: string, limit: number): number {
  DOCUMENT_START.lastIndex = 0
  let count = 0
  while (count <= limit && DOCUMENT_START.exec(text) !== null) count++
  DOCUMENT_START.lastIndex = 0
  return count
}

/**
 * Every non-empty document of a YAML stream as plain values, with PyYAML's 1.1 rules and the alias bound of
 * `@slipway/common`'s reader. A syntax error or too many aliases is a DesignYamlError telling the line and column
 * only: the parser's message quotes the text around it, and what a fetched document holds is never reflected to
 * the caller (issue 18). A design past `limits` is a DesignLimitError.
 */
export async function parseDesignYaml (text: string, limits: DesignLimits, sliceMs = SLICE_MS): Promise<unknown[]> {
  if (countDocumentStarts(text, limits.maxDocuments) > limits.maxDocuments) throw tooManyDocuments(limits.maxDocuments)
  const lines = new LineCounter()
  const parser = new Parser(lines.addNewLine)
  const composer = new Composer({ ...PYYAML_OPTIONS, uniqueKeys: true })
  const values: unknown[] = []
  let documents = 0
  const take = (doc: Document.Parsed): void => {
    if (++documents > limits.maxDocuments) throw tooManyDocuments(limits.maxDocuments)
    const first = doc.errors[0]
    if (first !== undefined) {
      const at = first.pos[0] >= 0 ? lines.linePos(first.pos[0]) : undefined
      throw new DesignYamlError(at === undefined ? '' : ` (line ${at.line}, column ${at.col})`)
    }
    let value: unknown
    try {
      value = doc.toJS({ maxAliasCount: DEFAULT_MAX_ALIAS_COUNT })
    } catch {
      throw new DesignYamlError('')
    }
    if (value !== null && value !== undefined) values.push(value)
  }
  lines.addNewLine(0)
  const turn = eventLoopTurns(sliceMs)
  let tokens = 0
  for (const lexeme of new Lexer().lex(text)) {
    if (++tokens > limits.maxTokens) {
      throw new DesignLimitError(`The design takes more than ${limits.maxTokens} YAML tokens to read, the most this service reads (DESIGN_MAX_TOKENS)`)
    }
    for (const token of parser.next(lexeme)) for (const doc of composer.next(token)) take(doc)
    // the clock is read once every 1024 tokens, not for each
    if ((tokens & 1023) === 0) await turn()
  }
  for (const token of parser.end()) for (const doc of composer.next(token)) take(doc)
  for (const doc of composer.end()) take(doc)
  return values
}
