// Revision tags: creating a tag that exists replaces its data (the orchestrator re-tags revisions).
import type { StoreDb } from '../db/sqlite.ts'
import { StoreError } from '../errors.ts'
import type { ParsedDocument } from '../yaml/codec.ts'
import { decodeStoredValue, encodeStoredValue, isMapping, pyStr, type Mapping } from './values.ts'

/** A tag's stored data; unreadable text shows as an empty mapping. */
export function tagData (text: string): unknown {
  try { return decodeStoredValue(text) } catch { return {} }
}

export function createTags (deps: { db: StoreDb, revisionId: (raw: string) => number }) {
  const { db, revisionId } = deps

  function createTag (raw: string, tag: string, body: ParsedDocument | undefined) {
    const id = revisionId(raw)
    const data = body?.value ?? null
    if (data !== null && !isMapping(data)) {
      // upstream formats the data with %s: Python's str()
      throw new StoreError(400, 'RevisionTagBadFormat', `The requested tag data ${pyStr(data)} must either be null or dictionary.`)
    }
    const value = data ?? {}
    db.upsertTag(id, tag, encodeStoredValue(value))
    return { [tag]: value }
  }

  function listTags (raw: string): Mapping {
    const id = revisionId(raw)
    const out: Mapping = {}
    for (const t of db.tagsOf(id)) out[t.tag] = tagData(t.data)
    return out
  }

  function tagNotFound (tag: string, id: number): StoreError {
    return new StoreError(404, 'RevisionTagNotFound', `The requested tag '${tag}' for revision ${id} was not found.`)
  }

  function showTag (raw: string, tag: string): Mapping {
    const id = revisionId(raw)
    const t = db.tagsOf(id).find((x) => x.tag === tag)
    if (t === undefined) throw tagNotFound(tag, id)
    return { [tag]: tagData(t.data) }
  }

  function deleteTag (raw: string, tag: string): void {
    const id = revisionId(raw)
    if (!db.deleteTag(id, tag)) throw tagNotFound(tag, id)
  }

  function deleteTags (raw: string): void {
    db.deleteTags(revisionId(raw))
  }

  return { createTag, listTags, showTag, deleteTag, deleteTags }
}
