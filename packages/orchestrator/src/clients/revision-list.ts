// The store's revision list, read without parsing it whole every time. The list gains an entry with every write to
// the store and is read by nearly every request that touches documents (the buffer's status, staging, commits, new
// actions). A YAML parser reads it at about 2 MB a second, so each read cost time and short-lived objects in
// proportion to the site's whole history: at 200 revisions, 10 ms of the event loop and megabytes of garbage per
// read. The reader keeps each entry's value by the entry's text and parses an entry only when its text is new (a
// new revision, or a tag added to one).
//
// Only the layout both Deckhand and the stand-in write is read in pieces: a block sequence under a top-level
// `results:` key, one `- ` item per revision. Anything else (a flow list, an entry that does not parse on its own,
// such as one using an anchor of another) is parsed whole, with the same outcome as before. What surrounds the list
// is parsed too, with the list taken out, so that the pieces agree with a whole parse or are left to it: a second
// document after the list, a second `results` key or text after the list that is not YAML is refused as the whole
// parse refuses it, not cut off unseen.

import { setImmediate as nextTurn } from 'node:timers/promises'

export interface RevisionListReader<T> {
  /**
   * The `results` entries of a revision list's text, each made by `toItem`; a text that does not parse throws, and so
   * does a list of more than `maxEntries`. New entries are parsed in slices with the event loop let through between
   * them, so a long list read for the first time does not hold other requests (health included) for its whole parse.
   */
  read: (text: string) => Promise<T[]>
}

/** How long new entries are parsed before other work is let through. */
const SLICE_MS = 10

export function createRevisionListReader<T> (options: {
  /**
   * Parses one YAML document: the whole answer, one entry's text (a sequence of one item), or what surrounds the
   * list. Throws when unreadable, and when the text holds more than one document, as a whole read of the answer does.
   */
  parse: (text: string) => unknown
  /** One entry of `results` as the caller keeps it (kept and handed out again: callers must not change it). */
  toItem: (entry: unknown) => T
  /** Most entries read; more throws `tooMany` before any new entry is parsed. */
  maxEntries?: number
  tooMany?: (count: number) => Error
}): RevisionListReader<T> {
  const { parse, toItem } = options
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY
  const tooMany = options.tooMany ?? ((count: number) => new Error(`The revision list holds ${count} entries, more than ${maxEntries}`))
  // the entries of the last list read, by text: each read keeps only what the list still holds
  let kept = new Map<string, T>()
  // what surrounds the list in the last answer whose surroundings were found sound
  let keptFrame: string | undefined

  function readWhole (text: string): T[] {
    const results = (parse(text) as { results?: unknown } | null)?.results
    if (!Array.isArray(results)) return []
    if (results.length > maxEntries) throw tooMany(results.length)
    return results.map(toItem)
  }

  /**
   * What surrounds the list, parsed with the list taken out: it must be one mapping whose `results` is then empty.
   * Anything else (a second document after the list, a second `results` key, text after the list that is not YAML,
   * a list that ends at an item of another indentation) is for a whole parse to refuse or read.
   */
  function frameIsSound (frame: string): boolean {
    if (frame === keptFrame) return true
    let value: unknown
    try {
      value = parse(frame)
    } catch {
      return false
    }
    const sound = typeof value === 'object' && value !== null && !Array.isArray(value) &&
      Object.hasOwn(value, 'results') && (value as { results: unknown }).results === null
    if (sound) keptFrame = ownCopy(frame)
    return sound
  }

  return {
    async read (text: string): Promise<T[]> {
      const layout = listLayout(text)
      if (layout === undefined) return readWhole(text)
      const { pieces } = layout
      if (pieces.length > maxEntries) throw tooMany(pieces.length)
      if (!frameIsSound(text.slice(0, layout.start) + text.slice(layout.end))) return readWhole(text)
      const items: T[] = []
      const next = new Map<string, T>()
      let sliceStart = performance.now()
      for (const piece of pieces) {
        let item = next.get(piece) ?? kept.get(piece)
        if (item === undefined) {
          if (performance.now() - sliceStart > SLICE_MS) {
            await nextTurn()
            sliceStart = performance.now()
          }
          let value: unknown
          try {
            value = parse(ownCopy(piece))
          } catch {
            return readWhole(text)
          }
          if (!Array.isArray(value) || value.length !== 1) return readWhole(text)
          item = toItem(value[0])
        }
        next.set(piece, item)
        items.push(item)
      }
      kept = next
      return items
    }
  }
}

/** The list's items (see listLayout), or undefined when the text is not laid out so. */
export function entryTexts (text: string): string[] | undefined {
  return listLayout(text)?.pieces
}

/**
 * The text of each item of the block sequence under the top-level `results:` key, in order, and where the items
 * start and end in the text; undefined when the text is not laid out so (the caller parses it whole). An item runs
 * from its `- ` line to the next line at the items' indentation or less that is not blank and not a comment. Reads
 * characters, not lines: no string per line.
 */
export function listLayout (text: string): { pieces: string[], start: number, end: number } | undefined {
  // only a block sequence: nothing but spaces or a comment after the key on its line
  const key = /^results:[ \t]*(?:#[^\n]*)?$/m.exec(text)
  if (key === null) return undefined
  const pieces: string[] = []
  let indent = -1
  let itemStart = -1
  let start = -1
  for (let at = key.index + key[0].length + 1; at < text.length; at = nextLine(text, at)) {
    let first = at
    while (text.charCodeAt(first) === SPACE) first++
    const spaces = first - at
    const code = text.charCodeAt(first)
    const blank = Number.isNaN(code) || code === NEWLINE || code === RETURN || code === HASH
    if (blank) continue
    const after = text.charCodeAt(first + 1)
    const item = code === DASH && (Number.isNaN(after) || after === SPACE || after === NEWLINE || after === RETURN)
    if (indent < 0) {
      if (!item) return undefined
      indent = spaces
    }
    if (spaces > indent) continue
    if (itemStart >= 0) pieces.push(text.slice(itemStart, at))
    itemStart = -1
    if (!item || spaces !== indent) return { pieces, start, end: at }
    if (start < 0) start = at
    itemStart = at
  }
  if (itemStart >= 0) pieces.push(text.slice(itemStart))
  return indent < 0 ? undefined : { pieces, start, end: text.length }
}

const SPACE = 0x20
const NEWLINE = 0x0a
const RETURN = 0x0d
const HASH = 0x23
const DASH = 0x2d

function nextLine (text: string, from: number): number {
  const end = text.indexOf('\n', from)
  return end < 0 ? text.length : end + 1
}

/**
 * The piece's characters in a string of their own. A piece is a slice of the whole answer, and so are the strings
 * parsed from it (a date, a tag): kept with the entry, they kept every answer an entry was first read from alive, a
 * whole list per revision.
 */
function ownCopy (piece: string): string {
  return Buffer.from(piece, 'utf8').toString('utf8')
}
