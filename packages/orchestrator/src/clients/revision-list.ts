// The store's revision list, read without parsing it whole every time. The list gains an entry with every write to
// the store and is read by nearly every request that touches documents (the buffer's status, staging, commits, new
// actions). A YAML parser reads it at about 2 MB a second, so each read cost time and short-lived objects in
// proportion to the site's whole history: at 200 revisions, 10 ms of the event loop and megabytes of garbage per
// read. The reader keeps each entry's value by the entry's text and parses an entry only when its text is new (a
// new revision, or a tag added to one).
//
// Only the layout both Deckhand and the stand-in write is read in pieces: a block sequence under a top-level
// `results:` key, one `- ` item per revision. Anything else (a flow list, an entry that does not parse on its own,
// such as one using an anchor of another) is parsed whole, with the same outcome as before.

export interface RevisionListReader<T> {
  /** The `results` entries of a revision list's text, each made by `toItem`; a text that does not parse throws. */
  read: (text: string) => T[]
}

export function createRevisionListReader<T> (options: {
  /** Parses one YAML document: the whole answer, or one entry's text (a sequence of one item). Throws when unreadable. */
  parse: (text: string) => unknown
  /** One entry of `results` as the caller keeps it (kept and handed out again: callers must not change it). */
  toItem: (entry: unknown) => T
}): RevisionListReader<T> {
  const { parse, toItem } = options
  // the entries of the last list read, by text: each read keeps only what the list still holds
  let kept = new Map<string, T>()

  function readWhole (text: string): T[] {
    const results = (parse(text) as { results?: unknown } | null)?.results
    return Array.isArray(results) ? results.map(toItem) : []
  }

  return {
    read (text: string): T[] {
      const pieces = entryTexts(text)
      if (pieces === undefined) return readWhole(text)
      const items: T[] = []
      const next = new Map<string, T>()
      for (const piece of pieces) {
        let item = next.get(piece) ?? kept.get(piece)
        if (item === undefined) {
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

/**
 * The text of each item of the block sequence under the top-level `results:` key, in order; undefined when the text
 * is not laid out so (the caller parses it whole). An item runs from its `- ` line to the next line at the items'
 * indentation or less that is not blank and not a comment. Reads characters, not lines: no string per line.
 */
export function entryTexts (text: string): string[] | undefined {
  // only a block sequence: nothing but spaces or a comment after the key on its line
  const key = /^results:[ \t]*(?:#[^\n]*)?$/m.exec(text)
  if (key === null) return undefined
  const pieces: string[] = []
  let indent = -1
  let itemStart = -1
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
    if (!item || spaces !== indent) return pieces
    itemStart = at
  }
  if (itemStart >= 0) pieces.push(text.slice(itemStart))
  return indent < 0 ? undefined : pieces
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
