// Committing the buffer (POST /commitconfigdocs): the buffer revision validated — the store's rendering and
// validations, then Shipyard's deployment checks and the validating components — and tagged committed when they
// pass (or when forced). A dry run only validates. The use case answers whether it committed and the body; the route
// picks the status code.
import {
  ConflictError, validationStatusBody, type RequestContext, type ValidationMessage, type ValidationStatusBody
} from '@slipway/common'
import type { StoreClient } from '../../clients/store.ts'
import type { ValidatorClient } from '../../clients/validators.ts'
import type { DatabaseLease } from '../database-lease.ts'
import { checkDeploymentConfiguration, DEPLOYMENT_SCHEMAS, parseDocuments, type VersionSeverity } from '../deployment-configuration.ts'
import { bufferChanges, readVersions } from './versions.ts'
import type { Staging } from './staging.ts'
import { anyErrors, deckhandMessages, sanitizedMessage, secretsOf } from './secret-messages.ts'

/** The design reference the validating components fetch: the store's rendered documents of the revision. */
export const designRefOf = (store: StoreClient) => (revisionId: number): string =>
  `deckhand+${store.baseUrl.replace(/\/+$/, '')}/revisions/${revisionId}/rendered-documents`

/** One entry of the store's render failure, in the shape of a validation message. */
const deckhandEntry = (fields: Record<string, unknown> & { message: string }): ValidationMessage => ({
  kind: 'ValidationMessage',
  name: 'Deckhand',
  level: 'Error',
  documents: [],
  diagnostic: null,
  ...fields,
  error: true,
  source: 'Deckhand'
})

/** The store's render failure as validation messages: its message list, else one entry with the start of its text. */
function renderFailure (store: StoreClient, text: string): ValidationMessage[] {
  let entries: ValidationMessage[] = []
  try {
    const body = store.parseYaml<{ details?: { messageList?: Array<Record<string, unknown>> } }>(text, 'rendered-documents')
    entries = (body?.details?.messageList ?? []).map((m) => deckhandEntry({ ...m, message: String(m.message ?? '') }))
  } catch {
    // not a Deckhand body: one generic entry below
  }
  if (entries.length > 0) return entries
  return [{
    kind: 'ValidationMessage',
    name: 'Deckhand',
    error: true,
    level: 'Error',
    message: text.slice(0, 2000),
    documents: [],
    diagnostic: null,
    source: 'Deckhand'
  }]
}

/** Shipyard's deployment checks on the rendered documents; an unexpected failure is one error. */
function ownChecks (renderedText: string, severity: VersionSeverity | undefined): ValidationMessage[] {
  try {
    return checkDeploymentConfiguration(parseDocuments(renderedText), 'full', severity)
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

interface CommitDeps {
  store: StoreClient
  validators: ValidatorClient
  /** The configdocs lock: one staging or commit at a time. */
  lock: DatabaseLease
  staging: Staging
  /** How a missing deployment-version document is reported at commit; Skip by default. */
  versionSeverity?: VersionSeverity | undefined
}

/** Every validation of a revision: the store's first; Shipyard's and the components' only when it found nothing. */
async function validateRevision (deps: CommitDeps, revisionId: number, ctx: RequestContext): Promise<ValidationMessage[]> {
  const { store } = deps
  // the whole revision is rendered (a render error is the first validation failure), and only
  // the documents of Shipyard's own checks come back to be parsed
  const render = await store.rendered(revisionId, false, ctx, { schemas: DEPLOYMENT_SCHEMAS })
  const messages = render.ok ? [] : renderFailure(store, render.text)
  const results = await store.validationsDetail(revisionId, ctx)
  // a message naming an encrypted document shows no value of it: the listing says which documents those are
  const isSecret = await secretsOf(store, revisionId, messages.length > 0 || anyErrors(results), ctx)
  const found = [...messages.map((m) => sanitizedMessage(m, isSecret)), ...deckhandMessages(results, isSecret)]
  if (found.some((m) => m.error)) return found
  // Shipyard's own checks and the components both, in parallel, once the store found nothing wrong
  const [own, components] = await Promise.all([
    ownChecks(render.text, deps.versionSeverity),
    deps.validators.validate(designRefOf(store)(revisionId), ctx)
  ])
  return [...found, ...own, ...components]
}

/**
 * Commits the buffer, or with `dryrun` only validates it. `bufferRevision`, when given, is the buffer revision the
 * caller examined (a dry run, say): the buffer must still be that revision, checked under the configdocs lock, so
 * that nothing staged since — another operator's deletion — is committed unseen; otherwise a 409 naming both.
 * Answers whether the buffer was committed (not on a dry run, nor when validations failed and it was not forced).
 */
export function createCommit (deps: CommitDeps) {
  const { store } = deps
  return async function commit (
    options: { force: boolean, dryrun: boolean, bufferRevision?: number | undefined },
    ctx: RequestContext
  ): Promise<{ committed: boolean, body: ValidationStatusBody }> {
    return await deps.lock.withLock(ctx, async (held) => {
      // a staging cut short is undone first: a half-replaced buffer is never committed
      await deps.staging.recover(ctx, held)
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
      const messages = await validateRevision(deps, v.buffer, ctx)
      const failed = messages.some((m) => m.error)
      if (options.dryrun) {
        const summary = `${failed ? 'Validations failed' : 'Validations succeeded'} DRYRUN`
        return { committed: false, body: validationStatusBody(messages, { statusCode: 200, message: summary }) }
      }
      if (failed && !options.force) return { committed: false, body: validationStatusBody(messages) }
      // the validations may have outlasted the lease: a lock lost meanwhile commits nothing
      await held.check()
      await store.tag(v.buffer, 'committed', ctx)
      const message = failed ? 'Validations failed FORCED SUCCESS' : 'Validations succeeded'
      return { committed: true, body: validationStatusBody(messages, { statusCode: 200, message }) }
    })
  }
}

export type Commit = ReturnType<typeof createCommit>
