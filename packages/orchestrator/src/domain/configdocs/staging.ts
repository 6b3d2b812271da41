// Staging as one change. The store has no transaction over several buckets: each bucket written is a revision of
// its own, so `buffermode=replace` (every changed collection written back, then the new one) could stop half-way.
// So every write is planned before the first one (the text each collection gets, and the revision holding what it
// had), a journal row is saved, the writes are made, and on any failure the collections written are written back
// as they were. The answer says which: the buffer is as before, or (the writing back failing too) each
// collection's state. A journal row left behind (the store still failing, the orchestrator killed) is undone by
// the next holder of the configdocs lock — the next staging or commit, or the recovery loop — before anything else.
// The holder renews that lock while it works and asks before each write whether it still holds it: a staging whose
// lock was lost (its lease ran out, so another holder may be undoing it) writes nothing more, not even its undo, and
// leaves its row to the next holder.
//
// What a collection held is read before the first write when only the buffer holds it (a collection the buffer
// changed). What the committed revision holds is read only to undo: it was read and checked at commit. A collection
// no text restores exactly (collection-documents.ts: documents the store never lists, a secret rendering changes, secrets that
// cannot be read) is never written back as if it were restored: it stays as the staging left it, and the answer says
// so and why, instead of saying the buffer is as before.
import { ApiError, ConflictError, InternalError, newUlid, type ErrorEntry, type RequestContext } from '@slipway/common'
import { StoreRejection, type StoreClient } from '../../clients/store.ts'
import type { StagingJournal, UndoSource } from '../../db/staging-journal.ts'
import { collectionText, type CollectionText } from './collection-documents.ts'
import { CONFIGDOCS_LOCK, LeaseLostError, type DatabaseLease, type HeldLease } from '../database-lease.ts'

export interface PlannedWrite {
  collection: string
  text: string
  /** A collection written back as committed for `replace`, or the collection being staged. */
  kind: 'reset' | 'staged'
}

/** Who stages or recovers: named in the journal row and forwarded to the store. */
export type StagingContext = Pick<RequestContext, 'user' | 'contextMarker'>

type WriteState = 'written' | 'refused' | 'unconfirmed'

/** Answers that already say what state the buffer is in. */
const told = new WeakSet<object>()

/** `error` with `note` after its message (same status and entries); errors not ours become a 500. */
export function withBufferNote (error: unknown, note: string): unknown {
  if (typeof error === 'object' && error !== null && told.has(error)) return error
  const base = error instanceof ApiError
    ? error
    : new InternalError('Unable to stage the collection', 'The orchestrator failed while staging', { cause: error })
  const annotated = new ApiError(base.statusCode, `${base.message}: ${note}`, base.reason, {
    errorList: base.errorList, infoList: base.infoList, retry: base.retry, errorType: base.errorType, headers: base.headers, cause: error
  })
  told.add(annotated)
  return annotated
}

function told5xx (statusCode: number, message: string, reason: string, errorList: ErrorEntry[], infoList: ErrorEntry[]): ApiError {
  const error = new ApiError(statusCode, message, reason, { errorList, infoList, retry: true, errorType: 'DownstreamError' })
  told.add(error)
  return error
}

const statusOf = (error: unknown): number => error instanceof ApiError && error.statusCode >= 500 ? error.statusCode : 503
const reasonOf = (error: unknown): string => error instanceof ApiError ? error.reason : (error as Error).message

/** The text that undoes the writes of a collection: what its source revision holds (none: no documents). */
async function textOf (store: StoreClient, source: UndoSource, ctx: StagingContext): Promise<CollectionText> {
  return source.revision === null ? { text: '', encrypted: false } : await collectionText(store, source.revision, source.collection, ctx)
}

/** One staging under way: what it planned, read first and wrote, for its answers and its undo. */
interface Run {
  store: StoreClient
  journal: StagingJournal
  ctx: StagingContext
  held: HeldLease
  id: string
  sources: Array<UndoSource & { readFirst: boolean }>
  read: Map<string, CollectionText>
  done: Array<PlannedWrite & { state: WriteState }>
  /** The collection being staged, named in the answers. */
  staged: string
  /** How often the recovery loop runs, as the answers say it (empty when not known). */
  every: string
}

/** Each collection's state after the writes made and undone, for the answer. */
function states (run: Run, restored: Set<string>): ErrorEntry[] {
  return run.sources.map((s) => s.collection).map((c) => {
    const last = run.done.filter((w) => w.collection === c && w.state !== 'refused').at(-1)
    let state = 'as before'
    if (!restored.has(c) && last !== undefined) {
      const changed = last.kind === 'reset' ? 'written back as committed' : 'staged with the new documents'
      state = last.state === 'written' ? changed : `${changed}, or as before (the store did not confirm the write)`
    }
    return { message: `Collection ${c}: ${state}`, collection: c, state }
  })
}

/**
 * The answer of a staging that lost the configdocs lock: nothing more is written, its row is left for the next
 * holder, which writes back what was written (or has done so already).
 */
function lostAnswer (run: Run, lost: unknown, written: boolean, restored: Set<string>): unknown {
  if (!written) return withBufferNote(lost, 'nothing was staged, the buffer is as before')
  const message = `Unable to stage collection ${run.staged}: the configdocs lock was lost, and the buffer may be partly changed ` +
    'until the next holder of the lock writes it back'
  return told5xx(statusOf(lost), message, reasonOf(lost), states(run, restored),
    [{
      message: `The collections written are written back as they were by the next holder of the configdocs lock: the next staging or commit, or the recovery loop of an orchestrator${run.every}. Nothing was written after the lock was lost. Staging journal entry ${run.id}.`
    }])
}

/** Writes one planned text; the store's refusal (4xx) is thrown as it came, the caller words it. */
async function writeOne (run: Run, write: PlannedWrite): Promise<void> {
  await run.held.check()
  const entry = { ...write, state: 'unconfirmed' as WriteState }
  run.done.push(entry)
  try {
    await run.store.putCollection(write.collection, write.text, run.ctx)
    entry.state = 'written'
  } catch (error) {
    if (error instanceof StoreRejection && error.statusCode < 500) entry.state = 'refused'
    throw error
  }
}

/**
 * Undoes the writes after `error` and answers the error to throw: `error` itself when nothing was written (or the
 * caller saw that the writes changed no document), else with its message saying the buffer is as before; a 5xx
 * naming each collection's state when writing back failed too (the journal row stays, to be undone later), or when
 * the lock was lost (nothing written back: the next holder does it).
 */
async function abortRun (run: Run, error: unknown, seen: { unchanged?: boolean }): Promise<unknown> {
  // what was read after the lock was lost may show another holder's undo: only the writes made are trusted then
  const lost = error instanceof LeaseLostError ? error : await run.held.check().then(() => undefined, (e: unknown) => e)
  if (lost instanceof LeaseLostError) return lostAnswer(run, lost, run.done.some((w) => w.state !== 'refused'), new Set())
  const written = seen.unchanged === true ? [] : run.done.filter((w) => w.state !== 'refused')
  const toUndo = [...new Set(written.map((w) => w.collection).reverse())]
  const restored = new Set<string>()
  const kept: string[] = []
  for (const c of toUndo) {
    try {
      const source = run.sources.find((s) => s.collection === c) ?? { collection: c, revision: null }
      const undo = run.read.get(c) ?? await textOf(run.store, source, run.ctx)
      if (undo.inexact !== undefined) {
        const last = written.filter((w) => w.collection === c).at(-1)
        const state = last?.kind !== 'reset'
          ? 'staged with the new documents'
          : last.text === '' ? 'emptied' : 'written back as committed'
        kept.push(`collection ${c}, ${state} (it cannot be written back as it was: ${undo.inexact})`)
        continue
      }
      await run.held.check()
      await run.store.putCollection(c, undo.text, run.ctx)
      restored.add(c)
    } catch (undoError) {
      if (undoError instanceof LeaseLostError) return lostAnswer(run, undoError, true, restored)
      const stagedText = `Unable to stage collection ${run.staged}: the buffer is partly changed until the store answers again`
      return told5xx(statusOf(undoError), stagedText,
        `${reasonOf(error)}; writing the buffer back failed as well: ${reasonOf(undoError)}`, states(run, restored),
        [{
          message: `The collections are written back as they were once the store answers, by the next staging or commit or the orchestrator's own recovery${run.every}; nothing is staged or committed until then. Staging journal entry ${run.id}.`
        }])
    }
  }
  // a row left in the journal is undone again by the next lock holder, which writes the same texts once more
  await run.journal.finish(run.id).catch(() => {})
  if (kept.length > 0) return withBufferNote(error, `the buffer is as before but for ${kept.join('; ')}`)
  return toUndo.length === 0 ? error : withBufferNote(error, 'the buffer is as before')
}

/**
 * Undoes every journal row left behind, newest first: each collection it names written back as its source
 * revision holds it, last written first. The caller holds the configdocs lock (`held`). A failure is a 5xx saying
 * the buffer may be partly changed.
 */
async function recoverAll (store: StoreClient, journal: StagingJournal, ctx: StagingContext, held: HeldLease): Promise<number> {
  const entries = await journal.pending()
  for (const entry of entries) {
    try {
      for (const source of [...entry.sources].reverse()) {
        const undo = await textOf(store, source, ctx)
        // a collection no text restores stays as the staging left it
        if (undo.inexact !== undefined) continue
        await held.check()
        await store.putCollection(source.collection, undo.text, ctx)
      }
    } catch (error) {
      const names = entry.sources.map((s) => s.collection).join(', ')
      throw told5xx(statusOf(error), 'An earlier staging cut short is not yet undone: the buffer may be partly changed', reasonOf(error),
        [{
          message: `Collections ${names} are written back as they were before it once the store answers; nothing is staged or committed until then.`
        }],
        [{ message: `Staging journal entry ${entry.id}, started ${entry.started_at} by ${entry.user}` }])
    }
    await journal.finish(entry.id)
  }
  return entries.length
}

export function createStaging (deps: {
  store: StoreClient
  journal: StagingJournal
  /** How often the recovery loop looks for rows left behind, for the answers that mention it. */
  recoveryIntervalS?: number
}) {
  const { store, journal } = deps

  /**
   * Starts a staging of `writes`, each collection's text before it held by its revision in `sources` (one for
   * each collection written). The texts only the buffer holds (`readFirst`) are read now; then the journal row is
   * saved. Nothing is written before both succeeded, and nothing at all once the configdocs lock (`held`) is lost.
   */
  async function begin (
    plan: { writes: PlannedWrite[], sources: Array<UndoSource & { readFirst: boolean }> },
    ctx: StagingContext,
    held: HeldLease
  ) {
    const read = new Map<string, CollectionText>()
    for (const source of plan.sources) if (source.readFirst) read.set(source.collection, await textOf(store, source, ctx))
    const id = newUlid()
    await held.check()
    await journal.begin({
      id,
      sources: plan.sources.map(({ collection, revision }) => ({ collection, revision })),
      user: ctx.user ?? 'unknown',
      context_marker: ctx.contextMarker,
      started_at: new Date().toISOString()
    })
    const run: Run = {
      store,
      journal,
      ctx,
      held,
      id,
      sources: plan.sources,
      read,
      done: [],
      staged: plan.writes.find((w) => w.kind === 'staged')?.collection ?? '',
      every: deps.recoveryIntervalS === undefined ? '' : ` (looked for every ${deps.recoveryIntervalS} s)`
    }
    return {
      write: async (write: PlannedWrite): Promise<void> => { await writeOne(run, write) },
      /**
       * Ends the staging as done: it stands. A failure here is thrown (the caller undoes the writes); so is a row
       * found gone, undone by another holder of the lock.
       */
      async complete (): Promise<void> {
        await held.check()
        if (!await journal.finish(id)) throw new LeaseLostError(CONFIGDOCS_LOCK)
      },
      abort: async (error: unknown, seen: { unchanged?: boolean } = {}): Promise<unknown> => await abortRun(run, error, seen)
    }
  }

  /** Undoes every journal row left behind (recoverAll); the caller holds the configdocs lock. */
  const recover = async (ctx: StagingContext, held: HeldLease): Promise<number> => await recoverAll(store, journal, ctx, held)

  return { begin, recover }
}

export type Staging = ReturnType<typeof createStaging>

/**
 * Undoes a staging cut short (the orchestrator killed, the store failing while it was written back) when one is
 * left: under the configdocs lock, so never one still being written. Answers how many were undone, or `busy` while
 * another holder has the lock.
 */
export function createStagingRecovery (deps: { journal: StagingJournal, lock: DatabaseLease, staging: Staging }): StagingRecovery {
  return async function recoverStaging (ctx: StagingContext): Promise<number | 'busy'> {
    if ((await deps.journal.pending()).length === 0) return 0
    try {
      return await deps.lock.withLock(ctx, async (held) => await deps.staging.recover(ctx, held))
    } catch (error) {
      // nothing but the lock answers a conflict here
      if (error instanceof ConflictError) return 'busy'
      throw error
    }
  }
}

export type StagingRecovery = (ctx: StagingContext) => Promise<number | 'busy'>
