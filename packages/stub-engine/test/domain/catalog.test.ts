// The stand-in's workflows are the workflow catalog's: the same DAG ids, each DAG's tasks the catalog's steps, and the
// DAGs that may not run side by side its exclusive set.
import { describe, expect, it } from 'vitest'
import { EXCLUSIVE_WORKFLOWS, WORKFLOW_IDS, WORKFLOWS } from '@slipway/airflow-contract'
import { SITE_ACTION_DAGS, siteWorkflows } from '../../src/domain/workflows.ts'

describe('stub-engine reads the workflow catalog', () => {
  it('serves one DAG per catalog workflow', () => {
    expect(siteWorkflows().map((d) => d.dag_id)).toEqual(WORKFLOW_IDS)
  })

  it('gives each DAG exactly the catalog\'s steps as tasks', () => {
    for (const dag of siteWorkflows()) {
      expect(dag.tasks.map((t) => t.task_id).sort(), dag.dag_id).toEqual([...WORKFLOWS[dag.dag_id]!.steps].sort())
    }
  })

  it('keeps the catalog\'s exclusive workflows from running side by side', () => {
    expect([...SITE_ACTION_DAGS]).toEqual(EXCLUSIVE_WORKFLOWS)
  })
})
