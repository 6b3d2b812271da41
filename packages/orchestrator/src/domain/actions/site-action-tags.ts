// Site-action tags (they move last_site_action and successful_site_action), a backstop for the workflow's own
// `create_action_tag` step: once a site action's run has ended and that step did not succeed (it failed, or the run
// was stopped before it), the revision gets the tag the step would have written, by the same rule. A revision never
// carries both tags for one action. Idempotent; driven from the database, so it catches up after a restart.
import type { RequestContext } from '@slipway/common'
import { TAG_REQUIRED_TASKS, TAG_STEP, TAG_WATCHED_TASKS } from '@slipway/airflow-contract'
import type { Repositories } from '../../db/repositories.ts'
import type { StoreClient } from '../../clients/store.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import { SITE_ACTION_FAILURE, SITE_ACTION_SUCCESS } from '../configdocs/versions.ts'
import { FAILED_STEP_STATES, runEnded } from './lifecycle.ts'
import { stepsOf } from './entity.ts'

/**
 * The tag of a finished site action whose workflow did not tag it, by the rule of the workflow's `create_action_tag`
 * step in Shipyard's workflows: failure when the armada build's last task or the Airflow upgrade branch ended failed or
 * upstream_failed. A run that ended before the build's last task succeeded (stopped, say) never reached that step's
 * verdict and is a failure too. So is a run with any step failed or upstream_failed (the tag step itself, say): the
 * action's lifecycle is Failed then, and the tag says the same.
 */
export function siteActionTag (stateOf: (taskId: string) => string | null, states: Array<string | null | undefined> = []): string {
  const failed = TAG_WATCHED_TASKS.some((t) => FAILED_STEP_STATES.has(String(stateOf(t)))) ||
    TAG_REQUIRED_TASKS.some((t) => stateOf(t) !== 'success') ||
    states.some((state) => FAILED_STEP_STATES.has(String(state)))
  return failed ? SITE_ACTION_FAILURE : SITE_ACTION_SUCCESS
}

/** Who the store is told tags a revision: the poller's marker and user. */
export type TagContext = Pick<RequestContext, 'contextMarker' | 'user'>

export function createSiteActionTags (deps: { repos: Repositories, reads: EngineReads, store: StoreClient }) {
  const { repos, reads, store } = deps
  /** Settles the tags of every site action whose run has ended; answers how many it settled. */
  return async function settleTags (ctx: TagContext): Promise<number> {
    let settled = 0
    for (const action of await repos.actions.listTagsPending()) {
      const run = await reads.run(action.dag_id, action.id, ctx)
      if (run === undefined || !runEnded(run.state)) continue
      const steps = await stepsOf(reads, action, ctx)
      const stateOf = (taskId: string): string | null => steps.find((s) => s.task_id === taskId)?.state ?? null
      if (action.committed_rev_id !== null && stateOf(TAG_STEP) !== 'success') {
        await store.tag(action.committed_rev_id, siteActionTag(stateOf, steps.map((s) => s.state)), ctx)
      }
      await repos.actions.markTagsDone(action.id)
      settled++
    }
    return settled
  }
}

export type SettleTags = ReturnType<typeof createSiteActionTags>
