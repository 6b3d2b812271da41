// Whose a run of an action workflow is. An action's run has the action's id as its run id and runs the action's
// workflow, and the action was triggered (a pre-run validation that refused an action refused it before any trigger).
// Any other run — started in the engine by hand, by another orchestrator on another database, before actions were
// saved first, or named after an action of another workflow or a refused one — is an orphan: no action can show or
// stop it, so it is reported (the reconciler's log and metric), listed (GET /workflows?orphans=true), named when it
// blocks a site action, and may be stopped through its workflow.
import type { Repositories, RunOwner } from '../db/repositories.ts'
import type { EngineRun } from '../clients/engine.ts'

/** A run of an action workflow that belongs to no action, and why. */
export interface OrphanRun { run: EngineRun, reason: string }

/** Whose `run` is, given the action of its run id (if any): undefined for the action's own run, else why it is none's. */
export function orphanReason (run: EngineRun, owner: RunOwner | undefined): string | undefined {
  const id = run.dag_run_id
  if (owner === undefined) {
    return 'No action has its run id: it was started in the engine by hand, by another orchestrator on another database, or ' +
      'before actions were saved first'
  }
  if (owner.dag_id !== run.dag_id) return `Its run id is action ${id}'s, whose workflow is ${owner.dag_id}, not ${run.dag_id}`
  if (owner.start_state === 'refused') return `Its run id is action ${id}'s, which a pre-run validation refused: that action never ran`
  return undefined
}

/** Each run with the action it belongs to (`owner`) or why it belongs to none (`orphan`), in one database read. */
export async function ownershipOf (
  repos: Pick<Repositories, 'actions'>,
  runs: EngineRun[]
): Promise<Array<{ run: EngineRun, owner: RunOwner | undefined, orphan: string | undefined }>> {
  const owners = runs.length === 0 ? new Map<string, RunOwner>() : await repos.actions.runOwners(runs.map((r) => r.dag_run_id))
  return runs.map((run) => {
    const owner = owners.get(run.dag_run_id)
    return { run, owner, orphan: orphanReason(run, owner) }
  })
}

/** The orphans among `runs`. */
export async function orphansAmong (repos: Pick<Repositories, 'actions'>, runs: EngineRun[]): Promise<OrphanRun[]> {
  return (await ownershipOf(repos, runs)).flatMap(({ run, orphan }) => orphan === undefined ? [] : [{ run, reason: orphan }])
}
