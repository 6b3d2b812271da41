// Notes: stored in the database, listed by verbosity, their details fetched from
// the note's URL by the note fetcher (a timeout and a size cap).
import { InternalError, NotFoundError, newUlid, type RequestContext } from '@slipway/common'
import type { NoteFetcher } from '../clients/note-source.ts'
import type { NoteRecord, Repositories } from '../db/repositories.ts'
import { zonedTimestamp } from './format.ts'

export function noteView (note: NoteRecord) {
  return {
    assoc_id: note.assoc_id,
    subject: note.subject,
    sub_type: note.sub_type,
    note_val: note.note_val,
    verbosity: note.verbosity,
    note_id: note.note_id,
    note_timestamp: zonedTimestamp(note.note_timestamp),
    resolved_url_value: note.link_url === null ? null : `Details at notedetails/${note.note_id}`
  }
}

export type NoteView = ReturnType<typeof noteView>

export function createNotes (deps: { repos: Repositories, fetchUrl: NoteFetcher, log?: (error: unknown) => void }) {
  const { repos } = deps

  /** Creation failures are logged and never fail the request: a note is never worth losing the answer. */
  async function add (note: Omit<NoteRecord, 'note_id' | 'note_timestamp'> & { note_timestamp?: string }): Promise<void> {
    try {
      await repos.notes.insert({ note_id: newUlid(), note_timestamp: new Date().toISOString(), ...note })
    } catch (error) {
      deps.log?.(error)
    }
  }

  return {
    add,
    actionNote: async (actionId: string, text: string) => {
      await add({
        assoc_id: `action/${actionId}`,
        subject: actionId,
        sub_type: 'action metadata',
        note_val: text,
        verbosity: 1,
        link_url: null,
        is_auth_link: false
      })
    },
    /** Action notes by action id, verbosity ≤ max. */
    async forActions (actionIds: string[], maxVerbosity: number): Promise<Map<string, NoteView[]>> {
      const out = new Map<string, NoteView[]>()
      for (const note of await repos.notes.find({ exact: actionIds.map((id) => `action/${id}`), maxVerbosity })) {
        const id = note.assoc_id.slice('action/'.length)
        out.set(id, [...(out.get(id) ?? []), noteView(note)])
      }
      return out
    },
    /** Step notes of one action by step id, verbosity ≤ max. */
    async forSteps (actionId: string, maxVerbosity: number): Promise<Map<string, NoteView[]>> {
      const out = new Map<string, NoteView[]>()
      const prefix = `step/${actionId}/`
      for (const note of await repos.notes.find({ prefix, maxVerbosity })) {
        const step = note.assoc_id.slice(prefix.length)
        out.set(step, [...(out.get(step) ?? []), noteView(note)])
      }
      return out
    },
    /** GET /notedetails/{id}: the text at the note's URL, as it is. */
    async detailText (noteId: string, ctx: RequestContext): Promise<string> {
      // a ULID (the route's schema) in either case: Crockford base 32 reads both; ids are stored in upper case
      const note = await repos.notes.get(noteId.toUpperCase())
      if (note === undefined) throw new NotFoundError('No note found', `Note ${noteId} is not found`)
      if (note.assoc_id.startsWith('action/')) ctx.authorize('workflow_orchestrator:get_action')
      else if (note.assoc_id.startsWith('step/')) ctx.authorize('workflow_orchestrator:get_action_step')
      if (note.link_url === null || note.link_url === '') {
        throw new NotFoundError('No further note details are available', `Note ${noteId} has no additional information to return`)
      }
      const unreachable = (): InternalError => new InternalError('Unable to retrieve URL information for note',
        `Note ${noteId} has additional information, but it cannot be accessed by Shipyard at this time`, { retry: false })
      try {
        return await deps.fetchUrl(note.link_url, note.is_auth_link, ctx)
      } catch {
        throw unreachable()
      }
    }
  }
}

export type Notes = ReturnType<typeof createNotes>
