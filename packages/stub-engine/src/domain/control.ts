// The operations that change DAGs, runs and task instances: pause flags, triggering, run state and notes,
// deleting, clearing, and marking task instances, with the instance resets and requeues they share.
import { Value } from 'typebox/value'
import {
  FINISHED_RUN_STATES, type ClearTaskInstancesBody, type DAGResponse, type DAGRunPatchBody, type DAGRunResponse,
  type PatchTaskInstanceBody, type TaskInstanceResponse, type TriggerDAGRunPostBody
} from '@slipway/airflow-contract'
import { StubConfSchema } from '../schemas/stub.ts'
import { tiNotFound, type EngineState } from './engine-state.ts'
import type { EngineOptions } from './engine-options.ts'
import { BadRequest, Conflict, NotFound, Unprocessable, uniqueConstraintDetail } from './errors.ts'
import { endTry, setState, type Executor } from './executor.ts'
import { uuid7 } from './ids.ts'
import { retriesOverride } from './injection.ts'
import { inRanges } from './queries.ts'
import type { Reads } from './reads.ts'
import { isoNow, runView, taskInstanceView, tryFieldsOf, type RunRecord, type TaskInstanceRecord } from './records.ts'
import { isFinished } from './scheduler-rules.ts'

export function createControl (
  shared: EngineState,
  executor: Executor,
  reads: Pick<Reads, 'dagResponse'>,
  options: Pick<EngineOptions, 'importErrorDags'>
) {
  const {
    defs, dags, runs, key, log, changed, forget, defOf, dagOf, runOf, taskDefOf, addressOf, stubOf, runsInOrder, findTis,
    appendLog, createRun
  } = shared
  const { stopExecution } = executor
  const { dagResponse } = reads

  function resetTi (run: RunRecord, ti: TaskInstanceRecord): void {
    const def = taskDefOf(run, ti.task_id)
    const now = isoNow()
    if (ti.state === 'running') {
      ti.state = 'restarting'
      stopExecution(ti)
    } else {
      if (ti.state === 'deferred') endTry(ti, null)
      if (ti.try_number > 0 && !ti.recorded && isFinished(ti.state)) {
        // the ended try keeps its outcome in history; the instance itself starts over with no state
        ti.history.push(tryFieldsOf(ti))
        ti.recorded = true
      }
      ti.state = null
    }
    // as Airflow does for every instance it clears, the instance takes a new id (its old try is history)
    ti.id = uuid7()
    ti.retry_at = null
    ti.defer_until = null
    ti.trigger = null
    // clearing gives the instance its retries again, as Airflow raises max_tries on a clear
    ti.max_tries = ti.try_number + (retriesOverride(addressOf(run, ti.task_id), stubOf(run)) ?? def?.retries ?? 0)
    ti.updated_at = now
  }

  function requeue (run: RunRecord): void {
    const now = isoNow()
    run.state = 'queued'
    run.queued_at = now
    run.end_date = null
    run.updated_at = now
  }

  /**
   * Forces every instance of a run to an end state, as PATCH …/dagRuns/{id} does (running instances fail, pending
   * ones are skipped).
   */
  function forceRunState (run: RunRecord, state: 'success' | 'failed'): void {
    const now = isoNow()
    for (const ti of run.tis) {
      if (state === 'success') {
        if (ti.state === 'success') continue
        if (ti.state === 'running') {
          stopExecution(ti)
          appendLog(ti, ti.try_number, 'warning', 'State of this instance has been externally set to success. Terminating instance.')
        }
        if (ti.state === 'running' || ti.state === 'deferred') endTry(ti, 'success')
        else setState(ti, 'success')
        continue
      }
      if (ti.state === 'running' || ti.state === 'deferred' || ti.state === 'up_for_reschedule') {
        stopExecution(ti)
        appendLog(ti, ti.try_number, 'error', 'Received SIGTERM. Terminating subprocesses.')
        appendLog(ti, ti.try_number, 'error', 'State of this instance has been externally set to failed. Terminating instance.')
        endTry(ti, 'failed')
      } else if (!isFinished(ti.state)) {
        if (ti.state === 'restarting') stopExecution(ti)
        setState(ti, 'skipped')
      }
    }
    run.state = state
    run.end_date = now
    run.updated_at = now
  }

  /**
   * What Airflow's set_task_instance_state does after marking a task: clear the failed and upstream_failed
   * instances downstream of it (not the task itself), and put a finished run back to queued so that it runs on.
   */
  function resumeDownstream (run: RunRecord, taskId: string): void {
    const tasks = defs.get(run.dag_id)!.tasks
    const downstream = new Set<string>()
    const stack = [taskId]
    while (stack.length > 0) {
      const id = stack.pop()!
      for (const t of tasks) if (t.upstream.includes(id) && !downstream.has(t.task_id)) { downstream.add(t.task_id); stack.push(t.task_id) }
    }
    downstream.delete(taskId)
    const cleared = run.tis.filter((t) => downstream.has(t.task_id) && (t.state === 'failed' || t.state === 'upstream_failed'))
    for (const ti of cleared) resetTi(run, ti)
    if (cleared.length > 0 && FINISHED_RUN_STATES.has(run.state)) requeue(run)
  }

  // ---- the public operations

  function patchDag (dagId: string, isPaused: boolean): DAGResponse {
    const dag = dagOf(dagId)
    if (dag.is_paused !== isPaused) {
      dag.is_paused = isPaused
      log({ dagId, isPaused }, isPaused ? 'DAG paused' : 'DAG unpaused')
      changed()
    }
    return dagResponse(dagId)
  }

  function trigger (dagId: string, body: TriggerDAGRunPostBody, user: string | null, requestId: string): DAGRunResponse {
    const def = defs.get(dagId)
    if (def === undefined) throw new NotFound(`DAG with dag_id: '${dagId}' not found`)
    if (options.importErrorDags.has(dagId)) throw new BadRequest(`DAG with dag_id: '${dagId}' has import errors and cannot be triggered`)
    const conf = body.conf ?? {}
    if (conf.stub !== undefined && !Value.Check(StubConfSchema, conf.stub)) {
      const first = [...Value.Errors(StubConfSchema, conf.stub)][0]
      const detail = first === undefined ? 'invalid' : `${first.instancePath || '/'} ${first.message}`
      throw new BadRequest(`Invalid input for param stub: ${detail}`)
    }
    const hasStart = body.data_interval_start != null
    const hasEnd = body.data_interval_end != null
    if (hasStart !== hasEnd) {
      throw new Unprocessable([{
        loc: ['body'],
        msg: 'Value error, Either both data_interval_start and data_interval_end must be provided or both must be None',
        type: 'value_error'
      }])
    }
    const now = isoNow()
    const logicalDate = body.logical_date === null ? null : new Date(body.logical_date).toISOString()
    const runAfter = body.run_after != null ? new Date(body.run_after).toISOString() : logicalDate ?? now
    const runId = body.dag_run_id ?? `manual__${runAfter.replace('Z', '+00:00')}`
    if (runs.has(key(dagId, runId))) throw new Conflict(uniqueConstraintDetail('dag_run', requestId))
    // Airflow 3.0–3.2 keep a unique key on (dag_id, logical_date) as well: a second run at the same date is refused
    if (logicalDate !== null && [...runs.values()].some((r) => r.dag_id === dagId && r.logical_date === logicalDate)) {
      throw new Conflict(uniqueConstraintDetail('dag_run', requestId, ['dag_id', 'logical_date']))
    }
    const run = createRun({
      dag_id: dagId,
      dag_run_id: runId,
      logical_date: logicalDate,
      run_after: runAfter,
      data_interval_start: hasStart ? new Date(body.data_interval_start!).toISOString() : logicalDate,
      data_interval_end: hasEnd ? new Date(body.data_interval_end!).toISOString() : logicalDate,
      run_type: 'manual',
      triggered_by: 'rest_api',
      triggering_user_name: user,
      conf,
      note: body.note ?? null
    })
    log({ dagId, runId, paused: dags.get(dagId)!.is_paused }, 'run triggered')
    changed(run)
    return runView(run, dags.get(dagId)!)
  }

  function patchRun (dagId: string, runId: string, body: DAGRunPatchBody, updateMask: string[] | undefined): DAGRunResponse {
    const run = runOf(dagId, runId)
    const applies = (field: string): boolean => updateMask === undefined || updateMask.includes(field)
    if (updateMask !== undefined) {
      const unknown = updateMask.filter((m) => m !== 'state' && m !== 'note')
      if (unknown.length > 0) throw new BadRequest(`Invalid fields to update: ${unknown.join(', ')}`)
    }
    if (applies('state') && body.state != null) {
      if (body.state === 'queued') requeue(run)
      else forceRunState(run, body.state)
      log({ dagId, runId, state: body.state }, 'run state set')
    }
    if (applies('note') && body.note !== undefined) run.note = body.note
    run.updated_at = isoNow()
    changed(run)
    return runView(run, dags.get(dagId)!)
  }

  function deleteRun (dagId: string, runId: string): void {
    const run = runOf(dagId, runId)
    for (const ti of run.tis) stopExecution(ti)
    runs.delete(key(dagId, runId))
    forget(run)
  }

  function clearRun (
    dagId: string,
    runId: string,
    body: { dry_run: boolean, only_failed: boolean }
  ): { dryRun: true, tis: TaskInstanceResponse[] } | { dryRun: false, run: DAGRunResponse } {
    const run = runOf(dagId, runId)
    const selected = run.tis.filter((t) => !body.only_failed || t.state === 'failed' || t.state === 'upstream_failed')
    const dag = dags.get(dagId)!
    if (body.dry_run) return { dryRun: true, tis: selected.map((t) => taskInstanceView(run, t, dag)) }
    for (const ti of selected) resetTi(run, ti)
    requeue(run)
    changed(run)
    return { dryRun: false, run: runView(run, dag) }
  }

  function clearTaskInstances (dagId: string, body: ClearTaskInstancesBody): TaskInstanceResponse[] {
    const def = defOf(dagId)
    let targets: RunRecord[]
    if (body.dag_run_id != null) {
      targets = [runOf(dagId, body.dag_run_id)]
    } else {
      targets = runsInOrder().filter((r) => r.dag_id === dagId &&
        inRanges(
          { logical_date: r.logical_date ?? r.run_after },
          { logical_date_gte: body.start_date ?? undefined, logical_date_lte: body.end_date ?? undefined }
        ))
    }
    const wanted = new Map<string, number | null>()
    for (const entry of body.task_ids ?? def.tasks.map((t) => t.task_id)) {
      if (typeof entry === 'string') wanted.set(entry, null)
      else wanted.set(entry[0], entry[1])
    }
    const expand = (from: string[], up: boolean): string[] => {
      const out = new Set<string>()
      const stack = [...from]
      while (stack.length > 0) {
        const id = stack.pop()!
        const next = up
          ? def.tasks.find((t) => t.task_id === id)?.upstream ?? []
          : def.tasks.filter((t) => t.upstream.includes(id)).map((t) => t.task_id)
        for (const n of next) if (!out.has(n)) { out.add(n); stack.push(n) }
      }
      return [...out]
    }
    const named = [...wanted.keys()]
    if (body.include_upstream === true) for (const id of expand(named, true)) if (!wanted.has(id)) wanted.set(id, null)
    if (body.include_downstream === true) for (const id of expand(named, false)) if (!wanted.has(id)) wanted.set(id, null)
    const onlyFailed = body.only_failed ?? true
    const dryRun = body.dry_run ?? true
    const out: TaskInstanceResponse[] = []
    for (const run of targets) {
      const chosen = run.tis.filter((ti) => {
        if (!wanted.has(ti.task_id)) return false
        const index = wanted.get(ti.task_id)
        if (index !== null && index !== undefined && ti.map_index !== index) return false
        if (body.only_running === true) return ti.state === 'running'
        return !onlyFailed || ti.state === 'failed' || ti.state === 'upstream_failed'
      })
      if (!dryRun) {
        for (const ti of chosen) resetTi(run, ti)
        if (chosen.length > 0 && body.reset_dag_runs !== false) requeue(run)
        if (chosen.length > 0) changed(run)
      }
      const dag = dags.get(run.dag_id)!
      out.push(...chosen.map((ti) => taskInstanceView(run, ti, dag)))
    }
    return out
  }

  function patchTaskInstance (
    dagId: string,
    runId: string,
    taskId: string,
    mapIndex: number | undefined,
    body: PatchTaskInstanceBody
  ): TaskInstanceResponse[] {
    const { run, tis } = findTis(dagId, runId, taskId)
    const chosen = mapIndex === undefined ? tis : tis.filter((t) => t.map_index === mapIndex)
    if (chosen.length === 0) throw tiNotFound(dagId, runId, taskId, mapIndex ?? -1)
    const state = body.new_state
    if (state != null) {
      for (const ti of chosen) {
        if (ti.state === 'running' || ti.state === 'deferred') {
          stopExecution(ti)
          appendLog(ti, ti.try_number, 'warning', `State of this instance has been externally set to ${state}. Terminating instance.`)
          endTry(ti, state)
        } else {
          setState(ti, state)
        }
      }
      resumeDownstream(run, taskId)
      run.updated_at = isoNow()
    }
    if (body.note !== undefined) for (const ti of chosen) ti.note = body.note
    changed(run)
    const dag = dags.get(dagId)!
    return chosen.map((ti) => taskInstanceView(run, ti, dag))
  }

  return { patchDag, trigger, patchRun, deleteRun, clearRun, clearTaskInstances, patchTaskInstance }
}
