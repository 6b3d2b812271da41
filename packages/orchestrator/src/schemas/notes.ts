// Wire shapes of the note details route: a note id (a ULID) in, the note's text out.
import { Type } from 'typebox'
import type { Wording } from '@slipway/common'

/** Crockford base 32 in either case: note ids are ULIDs, looked up in upper case. */
export const NoteParamsSchema = Type.Object({
  note_id: Type.String({
    pattern: '^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$',
    description: 'Note id (ULID)',
    'x-invalid': { message: 'Notes ID values are 26 character ULID values', reason: 'Invalid note_id: {value} in URL' } satisfies Wording
  })
})
export const NoteTextSchema = Type.String({ description: 'The text at the note\'s URL, as it is (text/plain)' })
