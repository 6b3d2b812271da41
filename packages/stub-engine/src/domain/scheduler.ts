// The scheduler loop: each tick starts queued runs, moves their task instances through their states (Airflow's run
// and task-instance state machines), launches the queued tries and finishes the runs whose instances all ended.
import { hostname as osHostname } from 'node:os'
import { FINISHED_RUN_STATES } from '@slipway/airflow-contract'
import type { EngineState } from './engine-state.ts'
import type { EngineOptions } from './engine-options.ts'
import { setState, type Executor } from './executor.ts'
import { mapCount } from './injection.ts'
import { uuid7 } from './ids.ts'
import { isoNow, TASK_USER, tryFieldsOf, type RunRecord, type TaskInstanceRecord } from './records.ts'
import { isFinished, readiness, runOutcome } from './scheduler-rules.ts'
import type { TaskDef } from './workflows.ts'

export function createScheduler (shared: EngineState, executor: Executor, options: Pick<EngineOptions, 'maxActiveRuns'>) {
  const { leaves, log, changed, taskDefOf, addressOf, stubOf, isPaused, runsInOrder, newTaskInstance } = shared
  const { launch } = executor
  const hostname = osHostname()

  function newTry (run: RunRecord, ti: TaskInstanceRecord): void {
    const now = isoNow()
    if (ti.try_number > 0 && !ti.recorded) {
      // as Airflow's history does, a try that ended unfinished (e.g. up_for_retry) is recorded as failed
      const previous = tryFieldsOf(ti)
      if (!isFinished(previous.state)) previous.state = 'failed'
      ti.history.push(previous)
    }
    // Airflow gives each try after the first an id of its own; the host, user and pid of the last try stay until
    // the new try starts running
    if (ti.try_number > 0) ti.id = uuid7()
    ti.try_number += 1
    ti.state = 'scheduled'
    ti.scheduled_when = now
    ti.queued_when = null
    ti.start_date = null
    ti.end_date = null
    ti.duration = null
    ti.retry_at = null
    ti.resumed = false
    ti.recorded = false
    ti.trigger = null
    ti.updated_at = now
    ti.logs[String(ti.try_number)] = []
    run.updated_at = now
  }

  function expand (run: RunRecord, ti: TaskInstanceRecord, def: TaskDef, count: number): void {
    if (count === 0) { ti.state = 'skipped'; ti.updated_at = isoNow(); return }
    const at = run.tis.indexOf(ti)
    const copies = Array.from({ length: count }, (_, i) => newTaskInstance(run, def, i))
    run.tis.splice(at, 1, ...copies)
  }

  function advanceTask (run: RunRecord, ti: TaskInstanceRecord, now: number): boolean {
    const def = taskDefOf(run, ti.task_id)
    if (def === undefined) return false
    const nowIso = new Date(now).toISOString()
    switch (ti.state) {
      case null: {
        const upstream = run.tis.filter((t) => def.upstream.includes(t.task_id)).map((t) => t.state)
        const ready = readiness(def.trigger_rule, upstream)
        if (ready === 'wait') return false
        if (ready !== 'run') { setState(ti, ready); return true }
        const count = ti.map_index === -1 ? mapCount(addressOf(run, ti.task_id), stubOf(run)) : undefined
        if (count !== undefined) { expand(run, ti, def, count); return true }
        newTry(run, ti)
        return true
      }
      case 'up_for_retry':
        if (ti.retry_at !== null && Date.parse(ti.retry_at) > now) return false
        newTry(run, ti)
        return true
      case 'deferred':
        if (ti.defer_until !== null && Date.parse(ti.defer_until) > now) return false
        // a deferred task's trigger fired: the same try is scheduled again, as Airflow resumes it
        ti.state = 'scheduled'
        ti.scheduled_when = nowIso
        ti.defer_until = null
        ti.trigger = null
        ti.updated_at = nowIso
        return true
      case 'scheduled':
        ti.state = 'queued'
        ti.queued_when = nowIso
        ti.updated_at = nowIso
        return true
      case 'queued':
        ti.state = 'running'
        ti.start_date ??= nowIso
        ti.hostname = hostname
        ti.unixname = TASK_USER
        ti.pid = process.pid
        ti.updated_at = nowIso
        launch(run, ti, def)
        return true
      default:
        return false
    }
  }

  function finishRunIfDone (run: RunRecord): boolean {
    if (!run.tis.every((t) => isFinished(t.state))) return false
    const leafIds = leaves.get(run.dag_id)!
    const state = runOutcome(run.tis.filter((t) => leafIds.has(t.task_id) && t.state !== 'removed').map((t) => t.state))
    const now = isoNow()
    run.state = state
    run.end_date = now
    run.updated_at = now
    log({ dagId: run.dag_id, runId: run.dag_run_id, state }, 'run finished')
    return true
  }

  function tick (): void {
    const now = Date.now()
    const nowIso = new Date(now).toISOString()
    const moved: RunRecord[] = []
    const active = runsInOrder().filter((r) => !FINISHED_RUN_STATES.has(r.state))
    const runningCount = new Map<string, number>()
    for (const r of active) if (r.state === 'running') runningCount.set(r.dag_id, (runningCount.get(r.dag_id) ?? 0) + 1)
    for (const run of active) {
      if (isPaused(run.dag_id)) continue
      if (run.state === 'queued') {
        const count = runningCount.get(run.dag_id) ?? 0
        if (Date.parse(run.run_after) > now || count >= options.maxActiveRuns) continue
        run.state = 'running'
        run.start_date = nowIso
        run.end_date = null
        run.updated_at = nowIso
        runningCount.set(run.dag_id, count + 1)
        moved.push(run)
        continue
      }
      run.last_scheduling_decision = nowIso
      let advanced = false
      for (const ti of [...run.tis]) if (advanceTask(run, ti, now)) advanced = true
      if (advanced) run.updated_at = nowIso
      if (finishRunIfDone(run) || advanced) moved.push(run)
    }
    for (const run of moved) changed(run)
  }

  return { tick }
}
