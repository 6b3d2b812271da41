// Each DAG's structure as Airflow serves it (GET /api/v2/dags/{dag_id}/tasks) against the workflow definitions
// stub-engine runs (its workflows module; stub-engine serves no tasks endpoint): task ids, downstream task ids,
// trigger rules, retries and operator names.
import { siteWorkflows } from '@slipway/stub-engine'
import type { Difference } from './shape.ts'

export interface TaskStructure {
  task_id: string
  downstream_task_ids: string[]
  trigger_rule: string
  retries: number
  operator_name: string
}

/** stub-engine's tasks of one DAG, in the shape of Airflow's task endpoint. */
export function stubStructure (dagId: string): TaskStructure[] {
  const dag = siteWorkflows().find((d) => d.dag_id === dagId)
  if (dag === undefined) return []
  return dag.tasks.map((t) => ({
    task_id: t.task_id,
    downstream_task_ids: dag.tasks.filter((d) => d.upstream.includes(t.task_id)).map((d) => d.task_id).sort(),
    trigger_rule: t.trigger_rule,
    retries: t.retries,
    operator_name: t.operator
  }))
}

/** Airflow's answer reduced to the same fields. */
export function airflowStructure (body: unknown): TaskStructure[] {
  const tasks = (body as { tasks?: Array<Record<string, unknown>> }).tasks ?? []
  return tasks.map((t) => ({
    task_id: String(t.task_id),
    downstream_task_ids: [...(t.downstream_task_ids as string[] ?? [])].sort(),
    trigger_rule: String(t.trigger_rule),
    retries: Number(t.retries),
    operator_name: String(t.operator_name)
  }))
}

export function compareStructures (dagId: string, stub: TaskStructure[], airflow: TaskStructure[]): Difference[] {
  const call = `structure: ${dagId}`
  const out: Difference[] = []
  const a = new Map(stub.map((t) => [t.task_id, t]))
  const b = new Map(airflow.map((t) => [t.task_id, t]))
  const onlyStub = [...a.keys()].filter((k) => !b.has(k))
  const onlyAirflow = [...b.keys()].filter((k) => !a.has(k))
  if (onlyStub.length > 0 || onlyAirflow.length > 0) {
    out.push({ call, path: '.tasks[]', kind: 'items', stub: `only here: ${onlyStub.join(', ') || '-'}`, airflow: `only here: ${onlyAirflow.join(', ') || '-'}` })
  }
  for (const [taskId, s] of a) {
    const f = b.get(taskId)
    if (f === undefined) continue
    for (const field of ['downstream_task_ids', 'trigger_rule', 'retries', 'operator_name'] as const) {
      const x = JSON.stringify(s[field])
      const y = JSON.stringify(f[field])
      if (x !== y) out.push({ call, path: `.tasks[${taskId}].${field}`, kind: 'value', stub: x, airflow: y })
    }
  }
  return out
}
