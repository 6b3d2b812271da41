// The engine's stored records (runs, task instances, tries, log lines) and their contract views.
import type {
  DagRunState, DagRunTriggeredBy, DagRunType, DagVersionResponse, DAGResponse, DAGRunResponse, TaskInstanceHistoryResponse,
  TaskInstanceResponse, TaskInstanceState, TriggerResponse
} from '@slipway/airflow-contract'
import type { DagDef } from './workflows.ts'

export interface LogLine {
  timestamp: string
  event: string
  level: string
  logger: string
  [key: string]: unknown
}

/** The per-try fields that move to history when a new try starts (Airflow's TaskInstanceHistory). */
export interface TryFields {
  try_number: number
  max_tries: number
  state: TaskInstanceState | null
  start_date: string | null
  end_date: string | null
  duration: number | null
  queued_when: string | null
  scheduled_when: string | null
  hostname: string | null
  unixname: string | null
  pid: number | null
}

export interface TaskInstanceRecord extends TryFields {
  id: string
  task_id: string
  map_index: number
  operator: string
  priority_weight: number
  note: string | null
  /** Copies of the finished earlier tries. */
  history: TryFields[]
  /** Log lines by try number. */
  logs: Record<string, LogLine[]>
  /** When an up_for_retry instance may be scheduled again. */
  retry_at: string | null
  /** While deferred: when the trigger fires; the deferral record shown as `trigger`. */
  defer_until: string | null
  trigger: TriggerResponse | null
  /** The try already deferred once, so it finishes when resumed. */
  resumed: boolean
  /** The current try was copied to history already (it was cleared after it ended). */
  recorded: boolean
  updated_at: string
}

export interface RunRecord {
  /** Creation order, the `id` Airflow sorts by. */
  seq: number
  dag_id: string
  dag_run_id: string
  logical_date: string | null
  run_after: string
  queued_at: string | null
  start_date: string | null
  end_date: string | null
  data_interval_start: string | null
  data_interval_end: string | null
  last_scheduling_decision: string | null
  run_type: DagRunType
  state: DagRunState
  triggered_by: DagRunTriggeredBy | null
  triggering_user_name: string | null
  conf: Record<string, unknown>
  note: string | null
  updated_at: string
  tis: TaskInstanceRecord[]
  /** What tasks of the run handed on (their XCom return values), by task id. */
  xcom?: Record<string, unknown>
}

export interface DagRecord {
  dag_id: string
  is_paused: boolean
  created_at: string
  version_id: string
}

export interface EngineSnapshot {
  seq: number
  dags: DagRecord[]
  runs: RunRecord[]
}

/** What changed since the last save: the DAG records and the run counter always, the runs changed and the runs deleted. */
export interface EngineChanges {
  seq: number
  dags: DagRecord[]
  runs: RunRecord[]
  removed: RunRecord[]
}

export const isoNow = (): string => new Date().toISOString()

/** The user the simulated scheduler and its task processes run as (a task instance's `unixname`). */
export const TASK_USER = 'airflow'

/** One exception of an Airflow 3 structured log's `error_detail`, with the frames of its traceback. */
export interface ExceptionDetail {
  exc_type: string
  exc_value: string
  exc_notes: string[]
  syntax_error: null
  is_cause: boolean
  frames: Array<{ filename: string, lineno: number, name: string }>
  is_group: boolean
  exceptions: ExceptionDetail[]
}

/** Where Airflow 3's task runner lives in its image: the outer frames of every failed task's traceback. */
const TASK_RUNNER = '/home/airflow/.local/lib/python3.12/site-packages/airflow/sdk/execution_time/task_runner.py'

/**
 * The `error_detail` Airflow 3's task runner logs with "Task failed with exception": the exception raised by the
 * operator's `execute`, and the frames from the task runner down to it (innermost last, as Python prints them).
 */
export function errorDetail (operator: string, message: string): ExceptionDetail[] {
  const module = operator.replace(/Operator$/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
  return [{
    exc_type: 'AirflowException',
    exc_value: message,
    exc_notes: [],
    syntax_error: null,
    is_cause: false,
    frames: [
      { filename: TASK_RUNNER, lineno: 867, name: 'run' },
      { filename: TASK_RUNNER, lineno: 1159, name: '_execute_task' },
      { filename: `/opt/airflow/plugins/${module}_operator.py`, lineno: 112, name: 'execute' }
    ],
    is_group: false,
    exceptions: []
  }]
}

/** Seconds between two ISO instants, or null when either is missing. */
export function seconds (start: string | null, end: string | null): number | null {
  if (start === null || end === null) return null
  return (Date.parse(end) - Date.parse(start)) / 1000
}

export function dagVersionView (dag: DagRecord): DagVersionResponse {
  return {
    id: dag.version_id,
    version_number: 1,
    dag_id: dag.dag_id,
    bundle_name: 'dags-folder',
    bundle_version: null,
    created_at: dag.created_at,
    dag_display_name: dag.dag_id,
    bundle_url: null
  }
}

/** A DAG as Airflow 3.1 answers it: the contract's DAGResponse and `last_parse_duration` (added in 3.1). */
export type DagView = DAGResponse & { last_parse_duration: number | null }

/** How long the stand-in says parsing a DAG file took, in seconds (it parses nothing). */
const PARSE_DURATION_S = 0.01

export function dagView (def: DagDef, dag: DagRecord, options: { maxActiveRuns: number, importErrors: boolean }): DagView {
  const file = `${def.dag_id}.py`
  return {
    dag_id: def.dag_id,
    dag_display_name: def.dag_id,
    is_paused: dag.is_paused,
    is_stale: false,
    last_parsed_time: dag.created_at,
    last_parse_duration: PARSE_DURATION_S,
    last_expired: null,
    bundle_name: 'dags-folder',
    bundle_version: null,
    relative_fileloc: file,
    fileloc: `/opt/airflow/dags/${file}`,
    description: def.description,
    timetable_summary: null,
    timetable_description: 'Never, external triggers only',
    tags: def.tags.map((name) => ({ name, dag_id: def.dag_id, dag_display_name: def.dag_id })),
    max_active_tasks: 16,
    max_active_runs: options.maxActiveRuns,
    max_consecutive_failed_dag_runs: 0,
    has_task_concurrency_limits: false,
    has_import_errors: options.importErrors,
    next_dagrun_logical_date: null,
    next_dagrun_data_interval_start: null,
    next_dagrun_data_interval_end: null,
    next_dagrun_run_after: null,
    owners: ['airflow'],
    file_token: Buffer.from(file).toString('base64url')
  }
}

export function runView (run: RunRecord, dag: DagRecord): DAGRunResponse {
  return {
    dag_run_id: run.dag_run_id,
    dag_id: run.dag_id,
    logical_date: run.logical_date,
    queued_at: run.queued_at,
    start_date: run.start_date,
    end_date: run.end_date,
    duration: seconds(run.start_date, run.end_date),
    data_interval_start: run.data_interval_start,
    data_interval_end: run.data_interval_end,
    run_after: run.run_after,
    last_scheduling_decision: run.last_scheduling_decision,
    run_type: run.run_type,
    state: run.state,
    triggered_by: run.triggered_by,
    triggering_user_name: run.triggering_user_name,
    conf: run.conf,
    note: run.note,
    dag_versions: [dagVersionView(dag)],
    bundle_version: null,
    dag_display_name: run.dag_id
  }
}

function tryView (run: RunRecord, ti: TaskInstanceRecord, fields: TryFields, dag: DagRecord): TaskInstanceHistoryResponse {
  return {
    task_id: ti.task_id,
    dag_id: run.dag_id,
    dag_run_id: run.dag_run_id,
    map_index: ti.map_index,
    start_date: fields.start_date,
    end_date: fields.end_date,
    duration: fields.duration,
    state: fields.state,
    try_number: fields.try_number,
    max_tries: fields.max_tries,
    task_display_name: ti.task_id,
    dag_display_name: run.dag_id,
    hostname: fields.hostname,
    unixname: fields.unixname,
    pool: 'default_pool',
    pool_slots: 1,
    queue: 'default',
    priority_weight: ti.priority_weight,
    operator: ti.operator,
    operator_name: ti.operator,
    queued_when: fields.queued_when,
    scheduled_when: fields.scheduled_when,
    pid: fields.pid,
    executor: null,
    executor_config: '{}',
    dag_version: dagVersionView(dag)
  }
}

export const historyView = tryView

export function taskInstanceView (run: RunRecord, ti: TaskInstanceRecord, dag: DagRecord): TaskInstanceResponse {
  return {
    id: ti.id,
    ...tryView(run, ti, ti, dag),
    logical_date: run.logical_date,
    run_after: run.run_after,
    note: ti.note,
    rendered_map_index: ti.map_index >= 0 ? String(ti.map_index) : null,
    rendered_fields: {},
    trigger: ti.trigger,
    triggerer_job: null
  }
}

/** The current try's fields, copied to history when the next try starts. */
export function tryFieldsOf (ti: TryFields): TryFields {
  return {
    try_number: ti.try_number,
    max_tries: ti.max_tries,
    state: ti.state,
    start_date: ti.start_date,
    end_date: ti.end_date,
    duration: ti.duration,
    queued_when: ti.queued_when,
    scheduled_when: ti.scheduled_when,
    hostname: ti.hostname,
    unixname: ti.unixname,
    pid: ti.pid
  }
}
