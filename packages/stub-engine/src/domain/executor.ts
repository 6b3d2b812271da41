// Running one try of a task instance: launching its operator, ending the try with its outcome and log lines,
// stopping it, and the state changes (set_state, end of a try) that the scheduler and the control operations share.
import type { TaskInstanceState } from '@slipway/airflow-contract'
import type { EngineState } from './engine-state.ts'
import type { EngineOptions } from './engine-options.ts'
import { planTask } from './injection.ts'
import { runOperator, TaskFailure, type LogLevel, type OperatorContext } from './operators.ts'
import { errorDetail, isoNow, seconds, type RunRecord, type TaskInstanceRecord } from './records.ts'
import { isFinished } from './scheduler-rules.ts'
import { SITE_ACTION_DAGS, type TaskDef } from './workflows.ts'

type Outcome =
  | { kind: 'success', follow?: string[], output?: unknown }
  | { kind: 'failed', error: string }
  | { kind: 'skipped' }
  | { kind: 'defer', ms: number }
  | { kind: 'aborted' }

/** Sleeps unless the signal aborts first (then rejects). */
function sleep (ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(new Error('aborted')); return }
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve() }, ms)
    const onAbort = (): void => { clearTimeout(timer); reject(new Error('aborted')) }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Airflow's TaskInstance.set_state, for an instance that gets a state without (further) running: a start date
 * when it has none, and for a final state an end date when it has none and the duration between them.
 */
export function setState (ti: TaskInstanceRecord, state: TaskInstanceState): void {
  if (ti.state === state) return
  const now = isoNow()
  ti.state = state
  ti.start_date ??= now
  if (isFinished(state) || state === 'up_for_retry') {
    ti.end_date ??= now
    ti.duration = seconds(ti.start_date, ti.end_date)
  }
  ti.updated_at = now
}

export function endTry (ti: TaskInstanceRecord, state: TaskInstanceState | null): void {
  const now = isoNow()
  ti.state = state
  ti.end_date = now
  ti.duration = seconds(ti.start_date ?? now, now)
  ti.updated_at = now
}

export function createExecutor (shared: EngineState, options: Pick<EngineOptions, 'taskMs' | 'retryDelayMs' | 'rules' | 'effects'>) {
  const { defs, taskIndex, runs, key, changed, addressOf, stubOf, runsInOrder, appendLog } = shared
  const executing = new Map<string, AbortController>()

  function finishTry (run: RunRecord, ti: TaskInstanceRecord, tryNumber: number, outcome: Outcome): void {
    executing.delete(ti.id)
    if (runs.get(key(run.dag_id, run.dag_run_id)) !== run || ti.try_number !== tryNumber) return
    if (outcome.kind === 'aborted') {
      // as in Airflow, a cleared running try is `restarting` until its process stops, then runs again as a new try
      if (ti.state === 'restarting') {
        endTry(ti, null)
        appendLog(ti, tryNumber, 'warning', 'Task instance was cleared while running: stopped, it will run again as a new try')
        changed(run)
      }
      return
    }
    if (ti.state !== 'running') return
    const now = isoNow()
    switch (outcome.kind) {
      case 'success':
        endTry(ti, 'success')
        appendLog(ti, tryNumber, 'info',
          `Marking task as SUCCESS. dag_id=${run.dag_id}, task_id=${ti.task_id}, run_id=${run.dag_run_id}, start_date=${ti.start_date}, end_date=${ti.end_date}`)
        if (outcome.follow !== undefined) skipUnfollowed(run, ti.task_id, outcome.follow)
        // what the task handed on, for the later tasks of the run (Airflow's XCom return value)
        if (outcome.output !== undefined) run.xcom = { ...run.xcom, [ti.task_id]: outcome.output }
        break
      case 'skipped':
        endTry(ti, 'skipped')
        appendLog(ti, tryNumber, 'info', 'Skipping task. Marking task as SKIPPED.')
        break
      case 'defer':
        ti.state = 'deferred'
        ti.defer_until = new Date(Date.now() + outcome.ms).toISOString()
        ti.trigger = {
          id: run.seq * 1000 + (taskIndex.get(run.dag_id)?.get(ti.task_id) ?? 0),
          classpath: 'airflow.triggers.temporal.TimeDeltaTrigger',
          kwargs: JSON.stringify({ delta_ms: outcome.ms }),
          created_date: now,
          triggerer_id: null
        }
        ti.resumed = true
        ti.updated_at = now
        appendLog(ti, tryNumber, 'info', `Pausing task as DEFERRED. Trigger fires in ${outcome.ms} ms`)
        break
      case 'failed': {
        appendLog(ti, tryNumber, 'error', outcome.error)
        // the line Airflow 3.1's task runner writes, with the place in it that writes it
        appendLog(ti, tryNumber, 'error', 'Task failed with exception',
          { logger: 'task', filename: 'task_runner.py', lineno: 986, error_detail: errorDetail(ti.operator, outcome.error) })
        const retry = ti.try_number <= ti.max_tries
        endTry(ti, retry ? 'up_for_retry' : 'failed')
        if (retry) ti.retry_at = new Date(Date.now() + options.retryDelayMs).toISOString()
        appendLog(ti, tryNumber, 'error',
          `Marking task as ${retry ? 'UP_FOR_RETRY' : 'FAILED'}. dag_id=${run.dag_id}, task_id=${ti.task_id}, run_id=${run.dag_run_id}`)
        break
      }
    }
    run.updated_at = now
    changed(run)
  }

  function launch (run: RunRecord, ti: TaskInstanceRecord, def: TaskDef): void {
    const controller = new AbortController()
    executing.set(ti.id, controller)
    const tryNumber = ti.try_number
    const address = addressOf(run, ti.task_id)
    const stub = stubOf(run)
    const plan = planTask(address, stub, options.rules, options.taskMs)
    const signal = controller.signal
    const say = (event: string, level: LogLevel = 'info', extra: Record<string, unknown> = {}): void => {
      if (ti.try_number === tryNumber) { appendLog(ti, tryNumber, level, event, extra); changed(run) }
    }
    const ctx: OperatorContext = {
      address,
      runId: run.dag_run_id,
      tryNumber,
      conf: run.conf,
      stub,
      effects: options.effects,
      log: say,
      signal,
      pause: () => sleep(plan.durationMs / 3, signal),
      concurrencyConflicts: () => concurrencyConflicts(run),
      taskStates: () => taskStatesOf(run),
      xcom: () => ({ ...run.xcom })
    }
    async function execute (): Promise<Outcome> {
      const started = Date.now()
      say(`Executing <Task(${def.operator}): ${ti.task_id}> on ${run.logical_date ?? run.run_after}`, 'info', {
        try_number: tryNumber, map_index: ti.map_index
      })
      if (tryNumber > 1) say(`Starting attempt ${tryNumber} of ${ti.max_tries + 1}`)
      if (plan.hang) {
        say('Injected hang: the task runs until it is stopped', 'warning')
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
      }
      if (!ti.resumed && plan.deferMs !== null) {
        await sleep(plan.durationMs / 3, signal)
        return { kind: 'defer', ms: plan.deferMs }
      }
      if (ti.resumed) say('Resuming after deferral')
      if (tryNumber <= plan.failTries) {
        await sleep(plan.durationMs, signal)
        return { kind: 'failed', error: `Injected failure of try ${tryNumber}` }
      }
      if (plan.skip) {
        await sleep(plan.durationMs, signal)
        return { kind: 'skipped' }
      }
      const result = await runOperator(def.kind, ctx)
      const left = plan.durationMs - (Date.now() - started)
      if (left > 0) await sleep(left, signal)
      const success: Outcome = { kind: 'success' }
      if (result?.follow !== undefined) success.follow = result.follow
      if (result?.output !== undefined) success.output = result.output
      return success
    }
    execute().then(
      (outcome) => finishTry(run, ti, tryNumber, outcome),
      (error: unknown) => {
        if (signal.aborted) { finishTry(run, ti, tryNumber, { kind: 'aborted' }); return }
        const e = error as { name?: string, message?: string, reason?: string }
        // errors from the outbound clients carry the useful part (what failed, how) in `reason`
        const detail = e.reason !== undefined && e.reason !== e.message ? `${e.message ?? ''} (${e.reason})` : e.message ?? String(error)
        const text = error instanceof TaskFailure ? detail : `${e.name ?? 'Error'}: ${detail}`
        finishTry(run, ti, tryNumber, { kind: 'failed', error: text })
      }
    )
  }

  function stopExecution (ti: TaskInstanceRecord): void {
    executing.get(ti.id)?.abort()
    executing.delete(ti.id)
  }

  /** Stops every running try, as the engine closes. */
  function stopAll (): void {
    for (const controller of executing.values()) controller.abort()
    executing.clear()
  }

  /** Each task's state in the run, by task id; a mapped task is its first instance. */
  function taskStatesOf (run: RunRecord): Record<string, TaskInstanceState | null> {
    const states: Record<string, TaskInstanceState | null> = {}
    for (const t of run.tis) if (!Object.hasOwn(states, t.task_id)) states[t.task_id] = t.state
    return states
  }

  function concurrencyConflicts (run: RunRecord): string[] {
    return runsInOrder()
      .filter((r) => r !== run && r.state === 'running' && SITE_ACTION_DAGS.has(r.dag_id))
      .map((r) => `${r.dag_id}/${r.dag_run_id}`)
  }

  function skipUnfollowed (run: RunRecord, branchTask: string, follow: string[]): void {
    const def = defs.get(run.dag_id)!
    for (const t of def.tasks) {
      if (!t.upstream.includes(branchTask) || follow.includes(t.task_id)) continue
      for (const ti of run.tis) {
        if (ti.task_id === t.task_id && ti.state === null) setState(ti, 'skipped')
      }
    }
  }

  return { launch, stopExecution, stopAll }
}

export type Executor = ReturnType<typeof createExecutor>
