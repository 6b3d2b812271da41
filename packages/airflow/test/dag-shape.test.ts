// Slipway's Airflow DAG files, loaded by a real Airflow (a DagBag in the virtual environment AIRFLOW_VENV), hold the
// same workflows stub-engine models: the same DAG ids, task ids in the same definition order, task groups,
// operators, upstream tasks, trigger rules and retries. Skipped, saying so, when no Airflow environment is installed.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteWorkflows } from '@slipway/stub-engine'

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const dagsFolder = join(here, '..', 'dags')

/** The Airflow environment: AIRFLOW_VENV, else where packages/airflow/bin/install.sh puts the chosen version. */
function airflowVenv (env = process.env): string {
  if (env.AIRFLOW_VENV !== undefined && env.AIRFLOW_VENV !== '') return env.AIRFLOW_VENV
  const cache = env.SLIPWAY_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'slipway')
  return join(cache, 'airflow', env.AIRFLOW_VERSION ?? '3.1.5')
}

interface TaskShape {
  task_id: string
  group: string | null
  operator: string
  upstream: string[]
  trigger_rule: string
  retries: number
  retry_delay_s: number
}
interface DagShape {
  dag_id: string
  description: string | null
  schedule: unknown
  catchup: boolean
  max_active_runs: number
  params: Record<string, unknown>
  tags: string[]
  fileloc: string
  tasks: TaskShape[]
}
interface BagShape { airflow_version: string, import_errors: Record<string, string>, dags: DagShape[] }

const venv = airflowVenv()
const python = join(venv, 'bin', 'python')
const found = existsSync(python)
const title = found
  ? `Slipway's DAGs in a DagBag (Airflow of ${venv})`
  : `Slipway's DAGs in a DagBag — skipped: no Airflow virtualenv at ${venv} (set AIRFLOW_VENV or run packages/airflow/bin/install.sh)`

describe.skipIf(!found)(title, () => {
  let home: string
  let bag: BagShape

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'slipway-dag-shape-'))
    const out = join(home, 'shape.json')
    const env = { ...process.env, AIRFLOW_HOME: home, AIRFLOW__CORE__LOAD_EXAMPLES: 'false', AIRFLOW__CORE__DAGS_FOLDER: dagsFolder }
    await run(python, [join(here, 'dag-shape.py'), dagsFolder, out], { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 })
    bag = JSON.parse(readFileSync(out, 'utf8')) as BagShape
  }, 150_000)

  afterAll(() => { if (home !== undefined) rmSync(home, { recursive: true, force: true }) })

  const workflows = siteWorkflows()
  const dagOf = (dagId: string): DagShape => {
    const dag = bag.dags.find((d) => d.dag_id === dagId)
    if (dag === undefined) throw new Error(`Airflow loaded no DAG ${dagId}`)
    return dag
  }

  it('loads the six site workflows, one file each, with no import error', () => {
    expect(bag.import_errors).toEqual({})
    expect(bag.dags.map((d) => d.dag_id).sort()).toEqual(workflows.map((w) => w.dag_id).sort())
    for (const dag of bag.dags) expect(dag.fileloc).toBe(`${dag.dag_id}.py`)
  })

  it.each(workflows.map((w) => [w.dag_id, w] as const))('%s: the tasks of stub-engine, in its order, with its groups, operators, upstream tasks, trigger rules and retries', (dagId, workflow) => {
    const dag = dagOf(dagId)
    expect(dag.tasks.map((t) => t.task_id)).toEqual(workflow.tasks.map((t) => t.task_id))
    for (const want of workflow.tasks) {
      const got = dag.tasks.find((t) => t.task_id === want.task_id)
      const group = want.task_id.includes('.') ? want.task_id.slice(0, want.task_id.lastIndexOf('.')) : null
      expect({ ...got, retry_delay_s: undefined }).toEqual({
        task_id: want.task_id,
        group,
        operator: want.operator,
        upstream: [...want.upstream].sort(),
        trigger_rule: want.trigger_rule,
        retries: want.retries,
        retry_delay_s: undefined
      })
    }
  })

  it.each(workflows.map((w) => [w.dag_id, w] as const))('%s: triggered only, no catch-up, 16 active runs, any conf, a 1 s retry delay', (dagId, workflow) => {
    const dag = dagOf(dagId)
    expect({ ...dag, tasks: undefined, fileloc: undefined }).toEqual({
      dag_id: dagId,
      description: workflow.description,
      schedule: null,
      catchup: false,
      max_active_runs: 16,
      params: {},
      tags: ['slipway'],
      tasks: undefined,
      fileloc: undefined
    })
    expect(new Set(dag.tasks.map((t) => t.retry_delay_s))).toEqual(new Set([1]))
  })
})
