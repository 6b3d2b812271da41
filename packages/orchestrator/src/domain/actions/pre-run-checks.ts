// The checks a new action passes before its run starts, one function each; the action's kind lists which it needs
// (../catalog.ts). A check that fails throws PreRunFailure: the action is saved as refused with that failure, and the
// caller is answered 409 with it. The in-progress check runs last, alone, under the site-action lease; the others
// run before it, in the kind's order.
import type { RequestContext, ValidationMessage } from '@slipway/common'
import type { Repositories } from '../../db/repositories.ts'
import type { EngineClient } from '../../clients/engine.ts'
import type { StoreClient } from '../../clients/store.ts'
import { EXCLUSIVE_DAGS, type ActionKind } from '../catalog.ts'
import { checkDeploymentConfiguration, DEPLOYMENT_SCHEMAS, parseDocuments, type VersionSeverity } from '../deployment-configuration.ts'
import { SITE_ACTION_FAILURE, SITE_ACTION_SUCCESS, type Versions } from '../configdocs/versions.ts'
import { ownershipOf } from '../orphan-runs.ts'
import { workflowOf } from '../steps.ts'
import type { ActionStarter } from './start.ts'
import { runInProgress } from './lifecycle.ts'

/** A failed pre-run check: its title names the validation, its details say why; `messages` are the findings. */
export class PreRunFailure extends Error {
  readonly title: string
  readonly details: string
  readonly messages: ValidationMessage[]
  constructor (title: string, details: string, messages: ValidationMessage[] = []) {
    super(title)
    this.title = title
    this.details = details
    this.messages = messages
  }
}

/** What the checks of one request look at. */
export interface PreRunRequest {
  parameters: Record<string, unknown>
  allowIntermediate: boolean
  versions: Versions
  ctx: RequestContext
}

/** A site action deploys the committed revision: there must be one. */
export function requireCommittedRevision (versions: Versions): void {
  if (versions.committed !== undefined) return
  throw new PreRunFailure('No committed configdocs',
    'Unable to locate a committed revision in the document store; commit configuration documents first.')
}

/**
 * Every commit before the committed revision has been deployed (tagged by a site action, whatever its outcome), unless
 * the caller allows commits no site action has used.
 */
export function refuseIntermediateCommits (versions: Versions, allowIntermediate: boolean): void {
  if (allowIntermediate) return
  const previous = versions.revisions.filter((r) => r.tags.includes('committed')).at(-2)
  if (previous === undefined || previous.tags.includes(SITE_ACTION_SUCCESS) || previous.tags.includes(SITE_ACTION_FAILURE)) return
  throw new PreRunFailure('Intermediate commit detected',
    'The committed revision has earlier commits not yet used by a site action. Rerun with allow-intermediate-commits=true if they are intended.')
}

/** The committed deployment documents hold no error, unless the action's `continue-on-fail` parameter is true. */
export function refuseDocumentErrors (messages: ValidationMessage[], parameters: Record<string, unknown>): void {
  const errors = messages.filter((m) => m.error)
  const continueOnFail = String(parameters['continue-on-fail'] ?? '').toLowerCase() === 'true'
  if (errors.length === 0 || continueOnFail) return
  throw new PreRunFailure('Document validation failed', errors.map((m) => m.message).join('; '), errors)
}

interface PreRunDeps {
  repos: Repositories
  engine: EngineClient
  store: StoreClient
  starter: Pick<ActionStarter, 'settle'>
  /** The deployment-version check of the full deployment validation; Skip by default. */
  deploymentVersionCommit?: VersionSeverity | undefined
}

/** The deployment documents' messages for a revision: the store renders them, Shipyard's deployment checks read them. */
async function renderAndCheck (
  deps: PreRunDeps, revision: number, mode: 'full' | 'basic', ctx: RequestContext
): Promise<ValidationMessage[]> {
  const render = await deps.store.rendered(revision, false, ctx, { schemas: DEPLOYMENT_SCHEMAS })
  return render.ok
    ? checkDeploymentConfiguration(parseDocuments(render.text), mode, deps.deploymentVersionCommit)
    : [{
        kind: 'ValidationMessage' as const,
        name: 'DocumentLookupError',
        error: true,
        message: `The committed documents could not be rendered (${render.status})`,
        level: 'Error',
        documents: [],
        diagnostic: null
      }]
}

/**
 * No other site action is in progress: a site action whose start the engine has not confirmed may yet run, so it
 * is settled first and blocks while it stays pending; then no exclusive workflow may be queued or running. Each run
 * in the way is named with how to clear it: an action's through its action, one that belongs to no action (an
 * orphan, which no action can stop) through its workflow.
 */
async function refuseSiteActionInProgress (deps: PreRunDeps, ctx: RequestContext): Promise<void> {
  const { repos, engine, starter } = deps
  for (const pending of await repos.actions.listStartPending()) {
    if (!EXCLUSIVE_DAGS.includes(pending.dag_id) || await starter.settle(pending, ctx) !== 'pending') continue
    throw new PreRunFailure('Another site action is in progress',
      `Action ${pending.id} (${pending.name}) is waiting for the engine to confirm its run; GET /actions/${pending.id} shows when it has started or failed to start.`)
  }
  const running = (await engine.runs({ dagIds: EXCLUSIVE_DAGS }, ctx)).filter((r) => runInProgress(r.state))
  if (running.length > 0) {
    const lines = (await ownershipOf(repos, running)).map(({ run, orphan }) => {
      const named = `Workflow run ${run.dag_id}/${run.dag_run_id} is ${String(run.state)}`
      return orphan === undefined
        ? `${named}: wait for it to finish, or stop its action (POST /api/v1.0/actions/${run.dag_run_id}/control/stop)`
        : `${named} and belongs to no action (${orphan}): stop it with POST /api/v1.0/workflows/${workflowOf(run).workflow_id}/control/stop`
    })
    throw new PreRunFailure('Another site action is in progress', `${lines.join('; ')}.`)
  }
}

export function createPreRunChecks (deps: PreRunDeps) {
  const checking = new Map<string, Promise<ValidationMessage[]>>()

  /**
   * The deployment documents' messages for a revision. Requests that ask while a check of the same revision is
   * under way share it: a burst of creates renders the site once, not once each.
   */
  async function deploymentMessages (revision: number, mode: 'full' | 'basic', ctx: RequestContext): Promise<ValidationMessage[]> {
    const key = `${revision}/${mode}`
    const running = checking.get(key)
    if (running !== undefined) return await running
    const check = renderAndCheck(deps, revision, mode, ctx)
    checking.set(key, check)
    try {
      return await check
    } finally {
      checking.delete(key)
    }
  }

  /** The committed revision's deployment documents pass the basic or the full check. */
  async function checkDeploymentDocuments (mode: 'full' | 'basic', request: PreRunRequest): Promise<void> {
    const revision = request.versions.committed
    if (revision === undefined) return
    refuseDocumentErrors(await deploymentMessages(revision, mode, request.ctx), request.parameters)
  }

  /** The kind's checks that need no lease, in its order (target nodes are checked before anything is stored). */
  async function independent (kind: ActionKind, request: PreRunRequest): Promise<void> {
    for (const validator of kind.validators) {
      if (validator === 'committed-revision') requireCommittedRevision(request.versions)
      else if (validator === 'intermediate-commits') refuseIntermediateCommits(request.versions, request.allowIntermediate)
      else if (validator === 'deployment-basic') await checkDeploymentDocuments('basic', request)
      else if (validator === 'deployment-full') await checkDeploymentDocuments('full', request)
    }
  }

  /** The in-progress check, when the kind has it; to be run holding the site-action lease. */
  async function exclusive (kind: ActionKind, ctx: RequestContext): Promise<void> {
    if (kind.validators.includes('no-site-action-running')) await refuseSiteActionInProgress(deps, ctx)
  }

  return { independent, exclusive }
}

export type PreRunChecks = ReturnType<typeof createPreRunChecks>
