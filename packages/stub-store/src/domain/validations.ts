// External validation results per revision: posting entries, and the views that aggregate them
// against the ValidationPolicy documents the revision itself wrote.
import type { StoreDb } from '../db/sqlite.ts'
import { StoreError } from '../errors.ts'
import type { ParsedDocument } from '../yaml/codec.ts'
import { VALIDATION_POLICY } from './documents.ts'
import { decodeStoredValue, decodeValue, encodeStoredValue, isMapping } from './values.ts'

const NEVER_REGISTERED = 'The result for this validation was never externally registered so its status defaulted to "failure".'

/** One entry, with exactly the keys every validation view shows (Deckhand's `show_entry`). */
interface Entry { name: string | null, status: string, createdAt: string | null, expiresAfter: unknown, errors: unknown[] }
type PostedEntry = Entry & { name: string }

export function createValidations (deps: { db: StoreDb, now: () => string, revisionId: (raw: string) => number }) {
  const { db, now, revisionId } = deps

  function createValidation (raw: string, name: string, body: ParsedDocument | undefined) {
    const id = revisionId(raw)
    if (body === undefined) throw new StoreError(400, 'HTTPBadRequest', 'The request body must not be empty.')
    const v = body.value
    const status = isMapping(v) ? v.status : undefined
    const validator = isMapping(v) ? v.validator : undefined
    if (typeof status !== 'string' || status === '' || !isMapping(validator) || Object.keys(validator).length === 0) {
      throw new StoreError(400, 'HTTPBadRequest', 'Validation payload must contain keys: "status", "validator".')
    }
    const errors = isMapping(v) && Array.isArray(v.errors) ? v.errors : []
    db.insertValidation({
      revision_id: id,
      name,
      status,
      validator: encodeStoredValue(validator),
      errors: encodeStoredValue(errors),
      created_at: now()
    })
    return { status, validator }
  }

  /**
   * The names the revision's own ValidationPolicy documents expect, each with the policy's
   * `expiresAfter` (null when none gives one; the first that does wins); undefined when it wrote none.
   */
  function expectedValidations (id: number): Map<string, unknown> | undefined {
    const policies = db.writesOf(id).filter((d) => d.deleted === 0 && d.schema.startsWith(VALIDATION_POLICY))
    if (policies.length === 0) return undefined
    const expected = new Map<string, unknown>()
    for (const p of policies) {
      const data = decodeValue(p.data, p.special === 1)
      if (!isMapping(data) || !Array.isArray(data.validations)) continue
      for (const v of data.validations) {
        if (!isMapping(v) || typeof v.name !== 'string') continue
        if ((expected.get(v.name) ?? null) === null) expected.set(v.name, v.expiresAfter ?? null)
      }
    }
    return expected
  }

  function entriesOf (id: number): PostedEntry[] {
    const expected = expectedValidations(id)
    const entries: PostedEntry[] = db.validationsOf(id).map((r) => {
      const errors = decodeStoredValue(r.errors) as unknown[]
      const entry: PostedEntry = {
        name: r.name,
        status: r.status,
        createdAt: r.created_at,
        expiresAfter: expected?.get(r.name) ?? null,
        errors
      }
      if (expected !== undefined && !expected.has(r.name)) {
        entry.status = `ignored [${r.status}]`
        entry.errors = [...errors, {
          message: `The result for this validation was externally registered but has been ignored because it is not found in the validations for ValidationPolicy [${VALIDATION_POLICY}/v1] for revision ${id}.`
        }]
      }
      return entry
    })
    return entries
  }

  function missingExpected (id: number, present: Set<string>): string[] {
    const expected = expectedValidations(id)
    return expected === undefined ? [] : [...expected.keys()].filter((n) => !present.has(n)).sort()
  }

  function listValidations (raw: string) {
    const id = revisionId(raw)
    const byName = new Map<string, string[]>()
    for (const e of entriesOf(id)) {
      const list = byName.get(e.name) ?? []
      list.push(e.status)
      byName.set(e.name, list)
    }
    for (const n of missingExpected(id, new Set(byName.keys()))) byName.set(n, ['failure'])
    const results = [...byName.keys()].sort().map((name) => {
      const statuses = byName.get(name) as string[]
      const status = statuses.some((s) => s.toLowerCase() === 'failure') ? 'failure' : [...statuses].sort()[0] as string
      return { name, status }
    })
    return { count: results.length, results }
  }

  /** Upstream's placeholder for expected validations never posted: named as requested, null in the detail view. */
  function neverRegistered (name: string | null, expiresAfter: unknown): Entry {
    return { name, status: 'failure', createdAt: null, expiresAfter, errors: [{ message: NEVER_REGISTERED }] }
  }

  function validationEntries (raw: string, name: string): Entry[] {
    const id = revisionId(raw)
    const entries: Entry[] = entriesOf(id).filter((e) => e.name === name)
    if (entries.length === 0 && missingExpected(id, new Set()).includes(name)) {
      entries.push(neverRegistered(name, expectedValidations(id)?.get(name) ?? null))
    }
    return entries
  }

  function listValidationEntries (raw: string, name: string) {
    const entries = validationEntries(raw, name)
    return { count: entries.length, results: entries.map((e, i) => ({ id: i, status: e.status })) }
  }

  function showValidationEntry (raw: string, name: string, entryRaw: string) {
    if (!/^\d+$/.test(entryRaw)) throw new StoreError(400, 'HTTPBadRequest', 'The {entry_id} parameter must be an integer.')
    const entries = validationEntries(raw, name)
    const n = Number(entryRaw)
    const entry = entries[n]
    if (entry === undefined) {
      throw new StoreError(404, 'ValidationNotFound',
        `The requested validation entry ${n} was not found for validation name ${name} and revision ID ${raw}.`)
    }
    return entry
  }

  function validationDetails (raw: string) {
    const id = revisionId(raw)
    const entries: Entry[] = entriesOf(id)
    const missing = missingExpected(id, new Set(entries.map((e) => e.name as string)))
    // one placeholder however many are missing, with no name (upstream: val_name is None here)
    if (missing.length > 0) entries.push(neverRegistered(null, null))
    const results = entries.map((e, i) => ({ ...e, id: i }))
    return { count: results.length, results }
  }

  return { createValidation, listValidations, listValidationEntries, showValidationEntry, validationDetails }
}
