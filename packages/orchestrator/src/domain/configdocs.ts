// Staging and committing configuration documents: the versions compared, collections read, the buffer committed.
import {
  BadRequestError, ConflictError, DownstreamError, NotFoundError, validationStatusBody,
  type RequestContext, type ValidationMessage, type ValidationStatusBody
} from '@slipway/common'
import type { StoreClient } from '../clients/store.ts'
import type { ValidatorClient } from '../clients/validators.ts'
import type { StagingJournal } from '../db/staging-journal.ts'
import type { DatabaseLease } from './database-lease.ts'
import { bufferChanges, readVersions, type VersionName } from './versions.ts'
import { checkDeploymentConfiguration, DEPLOYMENT_SCHEMAS, parseDocuments, type VersionSeverity } from './deployment-configuration.ts'
import { anyErrors, createIngest, deckhandMessages, type IngestInput } from './configdocs-ingest.ts'
import { createStaging, type StagingContext } from './staging.ts'
import { withClearSecrets } from './cleartext-secrets.ts'
import { sanitizedMessage, secretsOf } from './secret-messages.ts'

const RANK: Record<VersionName, number> = { successful_site_action: 0, last_site_action: 1, committed: 2, buffer: 3 }

export function createConfigdocs (deps: {
  store: StoreClient
  validators: ValidatorClient
  lock: DatabaseLease
  /** Where each staging is recorded while its writes are made, to be undone if cut short (staging.ts). */
  journal: StagingJournal
  /** The deployment-version checks at staging and at commit (how a missing document is reported); Skip by default. */
  deploymentVersion?: { create: VersionSeverity, commit: VersionSeverity }
  /** Largest size of a staged body's documents with their YAML aliases copied (none: no limit). */
  maxExpandedBytes?: number
  /** How often the recovery loop runs, named in the answers that rely on it. */
  recoveryIntervalS?: number
}) {
  const { store } = deps
  const staging = createStaging({ store, journal: deps.journal, recoveryIntervalS: deps.recoveryIntervalS })
  const stageCollection = createIngest({
    store, staging, versionSeverity: deps.deploymentVersion?.create, maxExpandedBytes: deps.maxExpandedBytes
  })

  /** The collections of two different versions compared, the older as base whatever order the caller gave. */
  async function status (versions: [VersionName, VersionName], ctx: RequestContext) {
    const [baseName, newName] = [...versions].sort((a, b) => RANK[a] - RANK[b]) as [VersionName, VersionName]
    const v = await readVersions(store, ctx)
    for (const name of [baseName, newName]) {
      if ((name === 'last_site_action' || name === 'successful_site_action') && v[name] === undefined) {
        throw new NotFoundError('Version does not exist', `${name} version does not exist`)
      }
    }
    let baseId = v[baseName] ?? 0
    let newId = v[newName]
    if (baseName === 'committed' && v.committed === undefined) { baseId = 0; newId = v.buffer ?? 0 }
    newId ??= v.buffer ?? baseId
    const diff = await store.diff(baseId, newId, ctx)
    return Object.keys(diff).sort().map((name) => ({
      collection_name: name,
      base_version: baseName,
      base_revision: baseId,
      new_version: newName,
      new_revision: newId,
      base_status: diff[name] === 'created' ? 'not present' : 'present',
      new_status: diff[name] ?? 'unmodified'
    }))
  }

  /** Shipyard's deployment checks on the rendered documents; an unexpected failure is one error. */
  async function ownChecks (renderedText: string): Promise<ValidationMessage[]> {
    try {
      return checkDeploymentConfiguration(parseDocuments(renderedText), 'full', deps.deploymentVersion?.commit)
    } catch (error) {
      return [{
        kind: 'ValidationMessage',
        name: 'DocumentValidationProcessingError',
        error: true,
        level: 'Error',
        message: `The deployment documents could not be checked: ${(error as Error).message}`,
        documents: [],
        diagnostic: null,
        source: 'Shipyard'
      }]
    }
  }

  /** Stages a collection under the configdocs lock (configdocs-ingest.ts). */
  async function ingest (collection: string, input: IngestInput, ctx: RequestContext): Promise<ValidationStatusBody> {
    return await deps.lock.withLock(ctx, async (held) => await stageCollection(collection, input, ctx, held))
  }

  /**
   * Undoes a staging cut short (the orchestrator killed, the store failing while it was written back) when one is
   * left: under the configdocs lock, so never one still being written. Answers how many were undone, or `busy`
   * while another holder has the lock.
   */
  async function recoverStaging (ctx: StagingContext): Promise<number | 'busy'> {
    if ((await deps.journal.pending()).length === 0) return 0
    try {
      return await deps.lock.withLock(ctx, async (held) => await staging.recover(ctx, held))
    } catch (error) {
      // nothing but the lock answers a conflict here
      if (error instanceof ConflictError) return 'busy'
      throw error
    }
  }

  async function collection (collectionId: string, version: VersionName, cleartext: boolean, ctx: RequestContext): Promise<string> {
    const v = await readVersions(store, ctx)
    // in cleartext, the store's references to secrets are replaced by the secrets (cleartext-secrets.ts)
    const shown = async (revision: number, text: string): Promise<string> =>
      cleartext ? await withClearSecrets(store, revision, collectionId, text, ctx) : text
    if (version === 'buffer') {
      const changes = await bufferChanges(store, v, ctx)
      // own keys only: a collection named `constructor` is not in every buffer
      const status = Object.hasOwn(changes, collectionId) ? changes[collectionId] : undefined
      if (status === undefined || v.buffer === undefined) {
        throw new NotFoundError('No documents to retrieve', 'The Shipyard buffer is empty or does not contain this collection')
      }
      // a collection emptied in the buffer (to be deleted at commit) reads as an empty body
      if (status === 'deleted') return ''
      return await shown(v.buffer, await store.documents(v.buffer, { collection: collectionId, cleartext }, ctx))
    }
    // A collection is present at a revision when it has live documents there. The revision list's `buckets`
    // names only the buckets that revision itself wrote, so it cannot tell: a collection committed long ago is
    // inherited by every later revision, and one emptied by a commit has no documents after it.
    const id = v[version]
    const absent = (): NotFoundError =>
      new NotFoundError('No documents to retrieve', `No collection ${collectionId} for revision ${version}`)
    if (id === undefined) throw absent()
    const text = await store.documents(id, { collection: collectionId, cleartext }, ctx)
    if (text.trim() === '' || text.trim() === '[]') throw absent()
    return await shown(id, text)
  }

  async function rendered (version: VersionName, cleartext: boolean, ctx: RequestContext): Promise<string> {
    const v = await readVersions(store, ctx)
    const id = v[version]
    if (id === undefined) throw new NotFoundError('This revision does not exist', `${version} version does not exist`)
    const result = await store.rendered(id, cleartext, ctx)
    // documents that fail validation (the store's 4xx) are the caller's fault, a 400; only the store's own failure is
    // a 5xx
    if (!result.ok && result.status < 500) {
      throw new BadRequestError('Deckhand indicated an error while rendering', result.text.slice(0, 2000))
    }
    if (!result.ok) {
      throw new DownstreamError('store', `Deckhand indicated an error while rendering: ${result.text.slice(0, 2000)}`, {
        statusCode: 500, upstreamStatus: result.status
      })
    }
    return result.text
  }

  /** The design reference the validating components fetch: the store's rendered documents of the revision. */
  const designRef = (revisionId: number): string =>
    `deckhand+${store.baseUrl.replace(/\/+$/, '')}/revisions/${revisionId}/rendered-documents`

  async function validateRevision (revisionId: number, ctx: RequestContext): Promise<ValidationMessage[]> {
    const messages: ValidationMessage[] = []
    // the whole revision is rendered (a render error is the first validation failure), and only
    // the documents of Shipyard's own checks come back to be parsed
    const render = await store.rendered(revisionId, false, ctx, { schemas: DEPLOYMENT_SCHEMAS })
    if (!render.ok) {
      let entries: ValidationMessage[] = []
      try {
        const body = store.parseYaml<{ details?: { messageList?: Array<Record<string, unknown>> } }>(render.text, 'rendered-documents')
        entries = (body?.details?.messageList ?? []).map((m): ValidationMessage => ({
          kind: 'ValidationMessage',
          name: 'Deckhand',
          level: 'Error',
          documents: [],
          diagnostic: null,
          ...m,
          message: String(m.message ?? ''),
          error: true,
          source: 'Deckhand'
        }))
      } catch {
        // not a Deckhand body: one generic entry below
      }
      const generic: ValidationMessage = {
        kind: 'ValidationMessage',
        name: 'Deckhand',
        error: true,
        level: 'Error',
        message: render.text.slice(0, 2000),
        documents: [],
        diagnostic: null,
        source: 'Deckhand'
      }
      messages.push(...(entries.length > 0 ? entries : [generic]))
    }
    const results = await store.validationsDetail(revisionId, ctx)
    // a message naming an encrypted document shows no value of it: the listing says which documents those are
    const isSecret = await secretsOf(store, revisionId, messages.length > 0 || anyErrors(results), ctx)
    const found = [...messages.map((m) => sanitizedMessage(m, isSecret)), ...deckhandMessages(results, isSecret)]
    if (found.some((m) => m.error)) return found
    // Shipyard's own checks and the components both, in parallel, once the store found nothing wrong
    const [own, components] = await Promise.all([
      ownChecks(render.text),
      deps.validators.validate(designRef(revisionId), ctx)
    ])
    return [...found, ...own, ...components]
  }

  /**
   * Commits the buffer, or with `dryrun` only validates it. `bufferRevision`, when given, is the buffer revision the
   * caller examined (a dry run, say): the buffer must still be that revision, checked under the configdocs lock, so
   * that nothing staged since — another operator's deletion — is committed unseen; otherwise a 409 naming both.
   */
  async function commit (
    options: { force: boolean, dryrun: boolean, bufferRevision?: number | undefined },
    ctx: RequestContext
  ): Promise<{ statusCode: number, body: ValidationStatusBody }> {
    return await deps.lock.withLock(ctx, async (held) => {
      // a staging cut short is undone first: a half-replaced buffer is never committed
      await staging.recover(ctx, held)
      const v = await readVersions(store, ctx)
      if (options.bufferRevision !== undefined && v.buffer !== options.bufferRevision) {
        const now = v.buffer === undefined ? 'empty (nothing is staged)' : `revision ${v.buffer}`
        throw new ConflictError('Unable to commit configuration documents',
          `The buffer is ${now}, not revision ${options.bufferRevision} as examined: it changed since. ` +
          'Read the buffer again (GET /configdocs) and run a new dry run before committing.')
      }
      const changes = await bufferChanges(store, v, ctx)
      if (v.buffer === undefined || Object.keys(changes).length === 0) {
        throw new ConflictError('Unable to commit configuration documents', 'There are no documents in the buffer to commit', {
          retry: true
        })
      }
      const messages = await validateRevision(v.buffer, ctx)
      const failed = messages.some((m) => m.error)
      if (options.dryrun) {
        const summary = `${failed ? 'Validations failed' : 'Validations succeeded'} DRYRUN`
        return { statusCode: 200, body: validationStatusBody(messages, { statusCode: 200, message: summary }) }
      }
      if (failed && !options.force) return { statusCode: 400, body: validationStatusBody(messages) }
      // the validations may have outlasted the lease: a lock lost meanwhile commits nothing
      await held.check()
      await store.tag(v.buffer, 'committed', ctx)
      const message = failed ? 'Validations failed FORCED SUCCESS' : 'Validations succeeded'
      return { statusCode: 200, body: validationStatusBody(messages, { statusCode: 200, message }) }
    })
  }

  return { status, ingest, recoverStaging, collection, rendered, commit, designRef }
}

export type Configdocs = ReturnType<typeof createConfigdocs>
