// Reconciling actions with the engine, at start-up and then periodically: pending starts are settled (the engine has
// the run: the action proceeds; none a grace period after its trigger: failed to start), a run that turned up for an
// action given up on makes it started after all, and runs of the action workflows that belong to no action
// (../orphan-runs.ts: matched on workflow and run id) are reported: the caller logs each once with why it is no action's,
// and the count is a metric. They are never adopted or stopped here.
import type { CallContext } from '@slipway/common'
import type { Repositories } from '../../db/repositories.ts'
import type { EngineReads } from '../engine/engine-reads.ts'
import { ownershipOf, type OrphanRun } from '../orphan-runs.ts'
import type { ActionStarter } from './start.ts'

export interface ReconcileReport {
  /** Actions whose start this pass confirmed. */
  started: string[]
  /** Actions this pass marked failed to start. */
  failed: string[]
  /** Actions still pending. */
  pending: string[]
  /** Runs of the action workflows without an action, first seen by this pass (each is reported once per process). */
  newOrphans: OrphanRun[]
  /** Every run without an action seen by this pass. */
  orphans: number
  /** What could not be read (the engine or the database failing); the next pass tries again. */
  errors: unknown[]
}

/** A pass's report before it found anything. */
export const emptyReport = (): ReconcileReport => ({ started: [], failed: [], pending: [], newOrphans: [], orphans: 0, errors: [] })

export function createActionReconciler (deps: {
  repos: Repositories
  reads: EngineReads
  starter: ActionStarter
  /** The workflows actions run: their runs are the ones checked against the actions. */
  dagIds: string[]
}) {
  const { repos, reads, starter } = deps
  /** Orphan runs reported so far (dag and run id): only those still seen are kept, so it stays bounded. */
  let reported = new Set<string>()
  let last: { pending: number, orphans: number } | undefined

  async function settlePending (report: ReconcileReport, ctx: CallContext): Promise<void> {
    for (const action of await repos.actions.listStartPending()) {
      const state = await starter.settle(action, ctx)
      report[state].push(action.id)
    }
  }

  async function findOrphans (report: ReconcileReport, ctx: CallContext): Promise<void> {
    // runs first, then the actions: an orchestrator saves an action before it triggers its run, so any run listed
    // here that has an action has it in the database by the time the actions are read
    const runs = await reads.runs({ dagIds: deps.dagIds }, ctx)
    const seen = new Set<string>()
    for (const { run, owner, orphan } of await ownershipOf(repos, runs)) {
      if (orphan === undefined) {
        // the action's own run, turned up for a start still pending or given up on
        if (owner?.start_state !== 'failed' && owner?.start_state !== 'pending') continue
        const action = await repos.actions.get(run.dag_run_id)
        if (action !== undefined) {
          await starter.started(action, run)
          if (!report.started.includes(action.id)) report.started.push(action.id)
        }
        continue
      }
      const key = `${run.dag_id}/${run.dag_run_id}`
      seen.add(key)
      if (!reported.has(key)) report.newOrphans.push({ run, reason: orphan })
    }
    reported = seen
    report.orphans = seen.size
  }

  async function reconcile (ctx: CallContext): Promise<ReconcileReport> {
    const report = emptyReport()
    await settlePending(report, ctx).catch((error: unknown) => { report.errors.push(error) })
    const orphans = await findOrphans(report, ctx).then(() => true, (error: unknown) => { report.errors.push(error); return false })
    const pending = (await repos.actions.listStartPending().catch(() => undefined))?.length
    last = { pending: pending ?? report.pending.length, orphans: orphans ? report.orphans : last?.orphans ?? 0 }
    return report
  }

  return {
    reconcile,
    /** The last pass's figures (metrics): starts still pending, runs without an action; undefined before any pass. */
    status: () => last
  }
}

export type ActionReconciler = ReturnType<typeof createActionReconciler>

/** One log line of a pass, for the service's logger. */
export interface ReconcileLine { level: 'debug' | 'info' | 'warn', details: Record<string, unknown>, message: string }

/**
 * What a pass found worth a line in the service log: each settled start, each run without an action once, failures;
 * and after the pass at start-up, what it found.
 */
export function reconcileLines (report: ReconcileReport, atStart = false): ReconcileLine[] {
  const lines: ReconcileLine[] = []
  for (const id of report.started) {
    lines.push({ level: 'info', details: { actionId: id }, message: 'action start confirmed: the engine has its run' })
  }
  for (const id of report.failed) {
    lines.push({ level: 'warn', details: { actionId: id }, message: 'action failed to start: the engine has no run for it' })
  }
  for (const { run, reason } of report.newOrphans) {
    lines.push({
      level: 'warn',
      details: { dagId: run.dag_id, runId: run.dag_run_id, runType: run.run_type, state: run.state, logicalDate: run.logical_date, reason },
      message: 'engine run without an action: /actions cannot show or stop it; GET /workflows?orphans=true lists it, ' +
        'POST /workflows/{workflow_id}/control/stop stops it'
    })
  }
  for (const error of report.errors) {
    lines.push({ level: 'warn', details: { err: error }, message: 'actions not reconciled with the engine; tried again later' })
  }
  if (atStart && report.errors.length === 0) {
    const { started, failed, pending } = report
    const figures = { started: started.length, failed: failed.length, pending: pending.length, orphanRuns: report.orphans }
    // nothing found is not worth a line at the default level: an idle stack prints nothing after its banner
    const found = Object.values(figures).some((n) => n > 0)
    lines.push({ level: found ? 'info' : 'debug', details: figures, message: 'actions reconciled with the engine at start-up' })
  }
  return lines
}
