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
  let piece = '['
  let first = true
  for (const item of items) {
    piece += (first ? '' : ',') + JSON.stringify(item)
    first = false
    if (piece.length >= pieceChars) {
      yield piece
      piece = ''
    }
  }
  yield `${piece}]\n`
}
