// Staging a collection (the use case of POST /configdocs/{collection}): the body checked, the buffer mode applied, the
// collection written, and the store's validations of the new buffer answered. Every check that can refuse the body
// runs before the first write; the writes are one staging (staging.ts): all of them stand, or none.
import {
  ApiError, BadRequestError, ConflictError, expandedYamlSize, validationStatusBody,
  type RequestContext, type ValidationMessage, type ValidationStatusBody
} from '@slipway/common'
import { StoreRejection, type DiffStatus, type StoreClient } from '../../clients/store.ts'
import type { UndoSource } from '../../db/staging-journal.ts'
import { readRefusal } from '../../clients/store-refusal.ts'
import type { BufferModeChoice } from '../../schemas/configdocs.ts'
import { hasDeploymentVersion, parseDocuments, type VersionSeverity } from '../deployment-configuration.ts'
import type { DatabaseLease, HeldLease } from '../database-lease.ts'
import { bufferChanges, readVersions, type Versions } from './versions.ts'
import { checkReset, planReset } from './buffer-reset.ts'
import { withBufferNote, type PlannedWrite, type Staging } from './staging.ts'
import { anyErrors, deckhandMessages, secretsOf } from './secret-messages.ts'

export interface IngestInput {
  body: string | undefined
  contentType?: string | undefined
  bufferMode: BufferModeChoice
  emptyCollection: boolean
  contentLength: number
}

/** Whether a YAML text has any line besides blanks, comments, directives and document markers. */
function holdsDocuments (text: string): boolean {
  return text.split(/\r?\n/).some((line) => !/^\s*(#.*)?$/.test(line) && !/^(---|\.\.\.)\s*(#.*)?$/.test(line) && !line.startsWith('%'))
}

/** A body sent as JSON, or that reads like it, to which a store refusal adds that YAML is expected. */
function looksLikeJson (input: { body: string | undefined, contentType?: string | undefined }): boolean {
  return /json/i.test(input.contentType ?? '') || /^\s*[[{]/.test(input.body ?? '')
}

export interface StageLimits {
  /** How a collection without the deployment-version document is answered at staging; Skip by default. */
  versionSeverity?: VersionSeverity | undefined
  /**
   * Largest size of the body's documents with every alias replaced by a copy of what it names: the store makes
   * those copies and writes them, so a small body of many aliases would otherwise be written a hundredfold.
   */
  maxExpandedBytes?: number | undefined
}

interface StageDeps extends StageLimits {
  store: StoreClient
  staging: Staging
  /** The configdocs lock: one staging or commit at a time. */
  lock: DatabaseLease
}

/**
 * The deployment-version check: a staged collection without the deployment-version document is refused (Error) or
 * noted in the 201 body (Info, Warning). A body that is not YAML is left to the store to refuse.
 */
function versionMessages (collection: string, input: IngestInput, versionSeverity: VersionSeverity | undefined): ValidationMessage[] {
  const severity = versionSeverity ?? 'Skip'
  if (severity === 'Skip' || input.emptyCollection) return []
  let documents
  try {
    documents = parseDocuments(input.body ?? '')
  } catch {
    return []
  }
  if (hasDeploymentVersion(documents)) return []
  const text = 'Deployment version document missing from collection'
  if (severity === 'Error') {
    throw new BadRequestError(text, `Collection ${collection} has no pegleg/DeploymentData/v1 document named deployment-version`)
  }
  return [{ name: null, error: false, code: '200 OK', message: text, status: severity, level: severity.toLowerCase() }]
}

/** The body's checks that need no store: each refusal a 4xx before anything is read or written. */
function checkBody (collection: string, input: IngestInput, limits: StageLimits): ValidationMessage[] {
  if (!input.emptyCollection && (input.contentLength <= 0 || input.body === undefined || input.body === '')) {
    throw new BadRequestError('Content-Length is a required header', 'Content Length is 0 or not specified', {
      errorList: [{
        message: 'The content length must be specified and greater than 0. Use empty-collection=true to clear a collection.'
      }]
    })
  }
  if (input.emptyCollection) return []
  const body = input.body ?? ''
  // comments, blank lines and document markers only: the store would write nothing and the answer would blame
  // identical contents (curl -d strips a file's newlines, leaving YAML that is one long comment line)
  if (!holdsDocuments(body)) {
    throw new BadRequestError('No documents in the body', 'The body holds only comments, blank lines or document markers', {
      errorList: [{
        message: 'Send one or more YAML documents. With curl use --data-binary @file, which keeps the file\'s newlines (-d strips them).'
      }]
    })
  }
  const limit = limits.maxExpandedBytes
  if (limit !== undefined && expandedYamlSize(body, limit) > limit) {
    const reason = `The documents of collection ${collection} take more than ${limit} bytes with every YAML alias replaced by a copy of what it names (the body is ${Buffer.byteLength(body)} bytes)`
    throw new ApiError(413, 'Documents too large once their aliases are expanded', reason, {
      errorList: [{ message: 'The store writes each alias out in full. Refer to large values fewer times, or split the collection.' }]
    })
  }
  return versionMessages(collection, input, limits.versionSeverity)
}

/** The staged collection's write; the store's refusal (4xx) worded as the seed's 400 or 409. */
async function writeStaged (write: (w: PlannedWrite) => Promise<void>, staged: PlannedWrite, input: IngestInput): Promise<void> {
  try {
    await write(staged)
  } catch (error) {
    if (!(error instanceof StoreRejection) || error.statusCode >= 500) throw error
    // the store's own words, each message once (not its error body's text as the reason)
    const refusal = readRefusal(error.body)
    const jsonHint = 'The body looks like JSON: configdocs takes YAML documents, separated by ---, each with schema, metadata and data'
    const details = {
      errorList: refusal.entries.length > 0 ? refusal.entries : undefined,
      infoList: looksLikeJson(input) ? [{ message: jsonHint }] : []
    }
    const reason = refusal.message.split('\n')[0] ?? ''
    if (error.statusCode === 409) throw new ConflictError('Documents may not exist in more than one collection', reason, details)
    throw new BadRequestError('Document(s) invalid syntax or otherwise unsuitable', reason, details)
  }
}

/**
 * Where what each collection written holds now is found, to undo its writes: a collection the buffer created or
 * modified in the buffer's revision (read before writing), one the buffer emptied nowhere (no documents), any
 * other in the committed revision.
 */
function undoSources (
  writes: PlannedWrite[],
  before: Versions,
  changes: Record<string, DiffStatus>
): Array<UndoSource & { readFirst: boolean }> {
  return [...new Set(writes.map((w) => w.collection))].map((collection) => {
    const status = Object.hasOwn(changes, collection) ? changes[collection] : undefined
    if (status === 'created' || status === 'modified') return { collection, revision: before.buffer ?? null, readFirst: true }
    return { collection, revision: status === 'deleted' ? null : before.committed ?? null, readFirst: false }
  })
}

/** One staging under the lock held (`held`): the checks, the buffer mode, the writes as one staging, the store's validations. */
async function stageOnce (
  deps: StageDeps, collection: string, input: IngestInput, ctx: RequestContext, held: HeldLease
): Promise<ValidationStatusBody> {
  const { store } = deps
  const extra = checkBody(collection, input, deps)
  const { mode } = input.bufferMode
  const before = await readVersions(store, ctx)
  const changes = await bufferChanges(store, before, ctx)
  const conflict = (): ConflictError => new ConflictError(
    'Invalid collection specified for buffer',
    `Buffermode : ${input.bufferMode.spelled}`,
    {
      errorList: [{
        message: `Buffer is either not empty or the collection ${collection} is already in the buffer. Another buffermode (append or replace) may do what you want.`
      }]
    }
  )
  const bufferEmpty = Object.keys(changes).length === 0
  if (!bufferEmpty && mode === 'rejectOnContents') throw conflict()
  if (!bufferEmpty && mode === 'append' && Object.hasOwn(changes, collection)) throw conflict()
  const reset = !bufferEmpty && mode === 'replace' ? await planReset(store, before.committed, changes, collection, ctx) : undefined
  const staged: PlannedWrite = { collection, text: input.emptyCollection ? '' : input.body ?? '', kind: 'staged' }

  const writes = [...(reset?.writes ?? []), staged]
  const run = await deps.staging.begin({ writes, sources: undoSources(writes, before, changes) }, ctx, held)
  // the one write the store took changed no document: there is nothing to undo
  let unchanged = false
  try {
    if (reset !== undefined) {
      for (const write of reset.writes) await run.write(write)
      await checkReset(store, before.committed, reset.withSecrets, collection, ctx)
    }
    await writeStaged(run.write, staged, input)
    const after = await readVersions(store, ctx)
    const nowChanged = await bufferChanges(store, after, ctx)
    if (!input.emptyCollection && !Object.hasOwn(nowChanged, collection)) {
      // (without a reset the collection was as committed before, else the buffer mode refused it)
      unchanged = reset === undefined
      throw new BadRequestError(`Collection ${collection} not added to Shipyard buffer`, 'Collection created no new revision', {
        errorList: [{ message: 'The collection added no new revision; it was probably reloaded with identical contents.' }]
      })
    }
    let messages: ValidationMessage[] = []
    if (after.buffer !== undefined) {
      const results = await store.validationsDetail(after.buffer, ctx)
      messages = deckhandMessages(results, await secretsOf(store, after.buffer, anyErrors(results), ctx))
    }
    await run.complete()
    return validationStatusBody([...messages, ...extra], { statusCode: messages.length > 0 ? 400 : 201 })
  } catch (error) {
    throw await run.abort(error, { unchanged })
  }
}

/**
 * Stages a collection under the configdocs lock; an earlier staging cut short is undone first. Answers the store's
 * validations of the new buffer (a 201 body, or 400 when they found errors).
 */
export function createStage (deps: StageDeps) {
  return async function stage (collection: string, input: IngestInput, ctx: RequestContext): Promise<ValidationStatusBody> {
    return await deps.lock.withLock(ctx, async (held) => {
      try {
        await deps.staging.recover(ctx, held)
        return await stageOnce(deps, collection, input, ctx, held)
      } catch (error) {
        // a refusal before any write leaves the buffer alone, as does any failure before the first write; one after
        // writes already says what became of them (staging.ts)
        if (error instanceof ApiError && error.statusCode < 500) throw error
        throw withBufferNote(error, 'nothing was staged, the buffer is as before')
      }
    })
  }
}

export type Stage = ReturnType<typeof createStage>
