// Staging and committing configuration documents (seed 000 §2.2, §3.2, §4.1–4.5; spec/orchestrator.md §2).
import {
  BadRequestError, ConflictError, DownstreamError, NotFoundError, validationStatusBody,
  type RequestContext, type ValidationMessage, type ValidationStatusBody
} from '@slipway/common'
import { StoreRejection, type StoreClient } from '../clients/store.ts'
import { readRefusal } from '../clients/store-refusal.ts'
import type { ValidatorClient } from '../clients/validators.ts'
import type { ApiLock } from './api-lock.ts'
import { bufferChanges, readVersions, type VersionName } from './versions.ts'
import { resetBuffer } from './buffer-reset.ts'
import { checkDeploymentConfiguration, DEPLOYMENT_SCHEMAS, hasDeploymentVersion, parseDocuments, type VersionSeverity } from './deployment-configuration.ts'

const RANK: Record<VersionName, number> = { successful_site_action: 0, last_site_action: 1, committed: 2, buffer: 3 }

function deckhandMessages (results: Array<{ name?: string, errors?: Array<Record<string, unknown>> }>): ValidationMessage[] {
  return results.flatMap((result) => (result.errors ?? []).map((e) => ({
    kind: 'ValidationMessage',
    name: typeof e.name === 'string' ? e.name : result.name ?? 'deckhand-validation',
    error: true,
    level: 'Error',
    message: String(e.message ?? 'Deckhand validation error'),
    documents: [{ name: String(e.name ?? 'not specified'), schema: String(e.schema ?? 'not specified') }],
    diagnostic: `Section: ${String(e.error_section ?? 'not specified')} at ${String(e.path ?? 'not specified')} (schema ${String(e.validation_schema ?? 'not specified')} at ${String(e.schema_path ?? 'not specified')})`,
    source: 'Deckhand'
  })))
}

/** Whether a YAML text has any line besides blanks, comments, directives and document markers. */
function holdsDocuments (text: string): boolean {
  return text.split(/\r?\n/).some((line) => !/^\s*(#.*)?$/.test(line) && !/^(---|\.\.\.)\s*(#.*)?$/.test(line) && !line.startsWith('%'))
}

/** A body sent as JSON, or that reads like it, to which a store refusal adds that YAML is expected. */
function looksLikeJson (input: { body: string | undefined, contentType?: string | undefined }): boolean {
  return /json/i.test(input.contentType ?? '') || /^\s*[[{]/.test(input.body ?? '')
}

export function createConfigdocs (deps: {
  store: StoreClient
  validators: ValidatorClient
  lock: ApiLock
  /** The deployment-version checks at staging and at commit (spec §2.5 step 5, §3.2); Skip by default. */
  deploymentVersion?: { create: VersionSeverity, commit: VersionSeverity }
}) {
  const { store } = deps

  /** The collections of two different versions compared, the older as base (spec §2.2). */
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

  /**
   * spec §2.5 step 5: a staged collection without the deployment-version document is refused (Error) or noted in
   * the 201 body (Info, Warning). A body that is not YAML is left to the store to refuse.
   */
  function versionMessages (collection: string, input: { body: string | undefined, emptyCollection: boolean }): ValidationMessage[] {
    const severity = deps.deploymentVersion?.create ?? 'Skip'
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

  /** Shipyard's deployment checks on the rendered documents; an unexpected failure is one error (spec §2.7 3a). */
  async function ownChecks (renderedText: string): Promise<ValidationMessage[]> {
    try {
      return checkDeploymentConfiguration(parseDocuments(renderedText), 'full', deps.deploymentVersion?.commit)
    } catch (error) {
      return [{ kind: 'ValidationMessage', name: 'DocumentValidationProcessingError', error: true, level: 'Error', message: `The deployment documents could not be checked: ${(error as Error).message}`, documents: [], diagnostic: null, source: 'Shipyard' }]
    }
  }

  async function ingest (
    collection: string,
    input: {
      body: string | undefined
      contentType?: string | undefined
      bufferMode: string | undefined
      emptyCollection: boolean
      contentLength: number
    },
    ctx: RequestContext
  ): Promise<ValidationStatusBody> {
    return await deps.lock.withLock(ctx, async () => {
      if (!input.emptyCollection && (input.contentLength <= 0 || input.body === undefined || input.body === '')) {
        throw new BadRequestError('Content-Length is a required header', 'Content Length is 0 or not specified', {
          errorList: [{ message: 'The content length must be specified and greater than 0. Use empty-collection=true to clear a collection.' }]
        })
      }
      // comments, blank lines and document markers only: the store would write nothing and the answer would blame
      // identical contents (curl -d strips a file's newlines, leaving YAML that is one long comment line)
      if (!input.emptyCollection && !holdsDocuments(input.body ?? '')) {
        throw new BadRequestError('No documents in the body', 'The body holds only comments, blank lines or document markers', {
          errorList: [{ message: 'Send one or more YAML documents. With curl use --data-binary @file, which keeps the file\'s newlines (-d strips them).' }]
        })
      }
      // append, replace or rejectOnContents in any case (the route's schema); the conflict names it as sent
      const mode = (input.bufferMode ?? 'rejectOnContents').toLowerCase()
      const extra = versionMessages(collection, input)
      const before = await readVersions(store, ctx)
      const changes = await bufferChanges(store, before, ctx)
      const bufferEmpty = Object.keys(changes).length === 0
      const conflict = (): ConflictError => new ConflictError('Invalid collection specified for buffer', `Buffermode : ${input.bufferMode ?? 'rejectOnContents'}`, {
        errorList: [{ message: `Buffer is either not empty or the collection ${collection} is already in the buffer. Another buffermode (append or replace) may do what you want.` }]
      })
      if (!bufferEmpty) {
        if (mode === 'rejectoncontents') throw conflict()
        if (mode === 'append' && Object.hasOwn(changes, collection)) throw conflict()
        if (mode === 'replace') await resetBuffer(store, before.committed, changes, ctx)
      }
      try {
        await store.putCollection(collection, input.emptyCollection ? '' : input.body ?? '', ctx)
      } catch (error) {
        if (!(error instanceof StoreRejection) || error.statusCode >= 500) throw error
        // the store's own words, each message once (not its error body's text as the reason)
        const refusal = readRefusal(error.body)
        const details = {
          errorList: refusal.entries.length > 0 ? refusal.entries : undefined,
          infoList: looksLikeJson(input) ? [{ message: 'The body looks like JSON: configdocs takes YAML documents, separated by ---, each with schema, metadata and data' }] : []
        }
        const reason = refusal.message.split('\n')[0] ?? ''
        if (error.statusCode === 409) throw new ConflictError('Documents may not exist in more than one collection', reason, details)
        throw new BadRequestError('Document(s) invalid syntax or otherwise unsuitable', reason, details)
      }
      const after = await readVersions(store, ctx)
      const nowChanged = await bufferChanges(store, after, ctx)
      if (!input.emptyCollection && !Object.hasOwn(nowChanged, collection)) {
        throw new BadRequestError(`Collection ${collection} not added to Shipyard buffer`, 'Collection created no new revision', {
          errorList: [{ message: 'The collection added no new revision; it was probably reloaded with identical contents.' }]
        })
      }
      const messages = after.buffer === undefined ? [] : deckhandMessages(await store.validationsDetail(after.buffer, ctx))
      const failed = messages.length > 0
      return validationStatusBody([...messages, ...extra], { statusCode: failed ? 400 : 201 })
    })
  }

  async function collection (collectionId: string, version: VersionName, cleartext: boolean, ctx: RequestContext): Promise<string> {
    const v = await readVersions(store, ctx)
    if (version === 'buffer') {
      const changes = await bufferChanges(store, v, ctx)
      // own keys only: a collection named `constructor` is not in every buffer
      const status = Object.hasOwn(changes, collectionId) ? changes[collectionId] : undefined
      if (status === undefined || v.buffer === undefined) {
        throw new NotFoundError('No documents to retrieve', 'The Shipyard buffer is empty or does not contain this collection')
      }
      // seed 000 §4.3: an emptied collection reads as an empty body
      if (status === 'deleted') return ''
      return await store.documents(v.buffer, { collection: collectionId, cleartext }, ctx)
    }
    // A collection is present at a revision when it has live documents there. The revision list's `buckets`
    // names only the buckets that revision itself wrote, so it cannot tell: a collection committed long ago is
    // inherited by every later revision, and one emptied by a commit has no documents after it.
    const id = v[version]
    const absent = (): NotFoundError => new NotFoundError('No documents to retrieve', `No collection ${collectionId} for revision ${version}`)
    if (id === undefined) throw absent()
    const text = await store.documents(id, { collection: collectionId, cleartext }, ctx)
    if (text.trim() === '' || text.trim() === '[]') throw absent()
    return text
  }

  async function rendered (version: VersionName, cleartext: boolean, ctx: RequestContext): Promise<string> {
    const v = await readVersions(store, ctx)
    const id = v[version]
    if (id === undefined) throw new NotFoundError('This revision does not exist', `${version} version does not exist`)
    const result = await store.rendered(id, cleartext, ctx)
    // seed 000 §7.3: documents that fail validation (the store's 4xx) are a 400; only the store's own failure is a 5xx
    if (!result.ok && result.status < 500) throw new BadRequestError('Deckhand indicated an error while rendering', result.text.slice(0, 2000))
    if (!result.ok) throw new DownstreamError('store', `Deckhand indicated an error while rendering: ${result.text.slice(0, 2000)}`, { statusCode: 500, upstreamStatus: result.status })
    return result.text
  }

  /** The design reference peers fetch (spec/orchestrator.md §2.7). */
  const designRef = (revisionId: number): string => `deckhand+${store.baseUrl.replace(/\/+$/, '')}/revisions/${revisionId}/rendered-documents`

  async function validateRevision (revisionId: number, ctx: RequestContext): Promise<ValidationMessage[]> {
    const messages: ValidationMessage[] = []
    // the whole revision is rendered (a render error is the first validation failure, spec §2.7 step 1), and only
    // the documents of Shipyard's own checks come back to be parsed
    const render = await store.rendered(revisionId, false, ctx, { schemas: DEPLOYMENT_SCHEMAS })
    if (!render.ok) {
      let entries: ValidationMessage[] = []
      try {
        const body = store.parseYaml<{ details?: { messageList?: Array<Record<string, unknown>> } }>(render.text, 'rendered-documents')
        entries = (body?.details?.messageList ?? []).map((m): ValidationMessage => ({ kind: 'ValidationMessage', name: 'Deckhand', level: 'Error', documents: [], diagnostic: null, ...m, message: String(m.message ?? ''), error: true, source: 'Deckhand' }))
      } catch {
        // not a Deckhand body: one generic entry below
      }
      const generic: ValidationMessage = { kind: 'ValidationMessage', name: 'Deckhand', error: true, level: 'Error', message: render.text.slice(0, 2000), documents: [], diagnostic: null, source: 'Deckhand' }
      messages.push(...(entries.length > 0 ? entries : [generic]))
    }
    messages.push(...deckhandMessages(await store.validationsDetail(revisionId, ctx)))
    if (messages.some((m) => m.error)) return messages
    // spec §2.7 step 3: Shipyard's own checks and the components both, once the store found nothing wrong
    const [own, components] = await Promise.all([
      ownChecks(render.text),
      deps.validators.validate(designRef(revisionId), ctx)
    ])
    return [...messages, ...own, ...components]
  }

  async function commit (
    options: { force: boolean, dryrun: boolean },
    ctx: RequestContext
  ): Promise<{ statusCode: number, body: ValidationStatusBody }> {
    return await deps.lock.withLock(ctx, async () => {
      const v = await readVersions(store, ctx)
      const changes = await bufferChanges(store, v, ctx)
      if (v.buffer === undefined || Object.keys(changes).length === 0) {
        throw new ConflictError('Unable to commit configuration documents', 'There are no documents in the buffer to commit', { retry: true })
      }
      const messages = await validateRevision(v.buffer, ctx)
      const failed = messages.some((m) => m.error)
      if (options.dryrun) {
        return { statusCode: 200, body: validationStatusBody(messages, { statusCode: 200, message: `${failed ? 'Validations failed' : 'Validations succeeded'} DRYRUN` }) }
      }
      if (failed && !options.force) return { statusCode: 400, body: validationStatusBody(messages) }
      await store.tag(v.buffer, 'committed', ctx)
      const message = failed ? 'Validations failed FORCED SUCCESS' : 'Validations succeeded'
      return { statusCode: 200, body: validationStatusBody(messages, { statusCode: 200, message }) }
    })
  }

  return { status, ingest, collection, rendered, commit, designRef }
}

export type Configdocs = ReturnType<typeof createConfigdocs>
