// A list answer written in pieces. GET /actions answers the site's whole history and clients poll it: made as one
// string it was a megabyte at 400 actions, on every read, and the heap held each until its next full collection, so
// the process grew with the history. In pieces of about 16 KB, each item's JSON made alone, no piece outlives its
// write, and no piece is large enough to be kept apart from the young objects.

export const PIECE_CHARS = 16 * 1024

/**
 * The JSON of `items` as one array, with the newline every JSON answer ends with, in pieces of about PIECE_CHARS;
 * items made as they are read (a generator) are each let go once written.
 */
export function * jsonPieces (items: Iterable<unknown>, pieceChars = PIECE_CHARS): Generator<string> {
  const pieces = piecesOf(pieceChars)
  for (const item of items) {
    const piece = pieces.add(item)
    if (piece !== undefined) yield piece
  }
  yield pieces.end()
}

/** The same for items read as they are written (pages of a database read): each page let go once written. */
export async function * jsonPiecesOf (items: AsyncIterable<unknown>, pieceChars = PIECE_CHARS): AsyncGenerator<string> {
  const pieces = piecesOf(pieceChars)
  for await (const item of items) {
    const piece = pieces.add(item)
    if (piece !== undefined) yield piece
  }
  yield pieces.end()
}

/** The array's text item by item: a piece once it reaches `pieceChars`, and the rest at the end. */
function piecesOf (pieceChars: number) {
  let piece = '['
  let first = true
  return {
    add (item: unknown): string | undefined {
      piece += (first ? '' : ',') + JSON.stringify(item)
      first = false
      if (piece.length < pieceChars) return undefined
      const full = piece
      piece = ''
      return full
    },
    end: (): string => `${piece}]\n`
  }
}
