// How large a YAML stream becomes once every alias is replaced by a copy of the node it names. A reader that makes
// those copies (the document store does, and writes them out) can be made to hold a hundred times the text it was
// sent: one anchored megabyte referenced a hundred times stays under any bound on the number of aliases. This
// counts the copies without making them — each anchored node is sized once and an alias adds that size — so the
// cost is one pass over the parsed nodes, however much the text would expand.
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document } from 'yaml'
import { PYYAML_OPTIONS } from './yaml.ts'

/** Characters counted for the punctuation around a pair (`: `) or an item (`- `) written out. */
const SEPARATOR = 2

function scalarSize (value: unknown): number {
  if (typeof value === 'string') return value.length
  if (value instanceof Uint8Array) return value.length
  return String(value).length
}

/**
 * The size of one document's contents written out with its aliases copied, or a number above `limit` as soon as
 * the count passes it. An alias to a node that contains it (a cycle) counts as unbounded.
 */
function documentSize (doc: Document, limit: number): number {
  // the sizes of the collections counted, kept for the aliases that name them
  const sizes = new Map<unknown, number>()
  const anchors = new Map<string, unknown>()
  const open = new Set<unknown>()
  const frames: Array<{ node: unknown, parts: unknown[], next: number, total: number }> = []

  /** A size for a node known at once (a scalar, a node already counted), else a frame pushed to count it. */
  const enter = (node: unknown): number | undefined => {
    if (node === null || node === undefined) return 0
    const known = sizes.get(node)
    if (known !== undefined) return known
    if (isAlias(node)) {
      const target = anchors.get(node.source)
      if (target === undefined) return 0
      if (open.has(target)) return Number.POSITIVE_INFINITY
      return enter(target)
    }
    const anchor = (node as { anchor?: unknown }).anchor
    if (typeof anchor === 'string') anchors.set(anchor, node)
    if (isScalar(node)) return scalarSize(node.value)
    let parts: unknown[]
    if (isPair(node)) parts = [node.key, node.value]
    else if (isMap(node) || isSeq(node)) parts = node.items
    else return 0
    frames.push({ node, parts, next: 0, total: SEPARATOR })
    open.add(node)
    return undefined
  }

  let size = enter(doc.contents)
  for (;;) {
    const top = frames.at(-1)
    if (size !== undefined) {
      if (top === undefined) return size
      top.total += size
      if (top.total > limit) return top.total
    }
    if (top === undefined) return 0
    if (top.next < top.parts.length) {
      size = enter(top.parts[top.next++])
      continue
    }
    frames.pop()
    open.delete(top.node)
    if (typeof (top.node as { anchor?: unknown }).anchor === 'string') sizes.set(top.node, top.total)
    size = top.total
  }
}

/**
 * The characters a YAML stream's documents take with every alias copied (PyYAML's YAML 1.1 reading), counted up
 * to just past `limit`: a result above `limit` means "more than the limit", not the exact size. Text without an
 * alias cannot expand and is measured as it is; text the parser cannot read is measured as far as it got (the
 * reader that refuses it says why).
 */
export function expandedYamlSize (text: string, limit: number): number {
  // an alias begins with `*`: without one, nothing is copied
  if (!text.includes('*')) return text.length
  let docs
  try {
    docs = parseAllDocuments(text, PYYAML_OPTIONS)
  } catch {
    return text.length
  }
  let total = 0
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    total += documentSize(doc, limit - total)
    if (total > limit) return total
  }
  return total
}
