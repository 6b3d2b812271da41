// The orchestrator's view of the workflows is the workflow catalog's: the same ids, step order, exclusive set and
// tagging workflows, and the pre-run checks the catalog's targeted and exclusive workflows call for.
import { describe, expect, it } from 'vitest'
import { EXCLUSIVE_WORKFLOWS, TAG_WATCHED_TASKS, WORKFLOW_IDS, WORKFLOWS } from '@slipway/airflow-contract'
import { ACTIONS, EXCLUSIVE_DAGS, STEP_ORDER } from '../../src/domain/catalog.ts'
import { siteActionTag } from '../../src/domain/actions/site-action-tags.ts'

describe('the orchestrator reads the workflow catalog', () => {
  it('starts one action per catalog workflow, on the workflow of the same id', () => {
    expect(Object.keys(ACTIONS)).toEqual(WORKFLOW_IDS)
    for (const [name, kind] of Object.entries(ACTIONS)) expect(kind.dagId).toBe(name)
  })

  it('orders the steps, picks the exclusive and the tagging workflows as the catalog says', () => {
    expect(STEP_ORDER).toEqual(Object.fromEntries(WORKFLOW_IDS.map((id) => [id, WORKFLOWS[id]!.steps])))
    expect(EXCLUSIVE_DAGS).toEqual(EXCLUSIVE_WORKFLOWS)
    expect(Object.keys(ACTIONS).filter((n) => ACTIONS[n]!.siteAction)).toEqual(['deploy_site', 'update_site', 'update_software'])
  })

  it('checks the target nodes of the targeted workflows first and that no other site action runs for the exclusive ones', () => {
    expect(Object.fromEntries(Object.entries(ACTIONS).map(([name, kind]) => [name, kind.validators]))).toEqual({
      deploy_site: ['committed-revision', 'intermediate-commits', 'deployment-full', 'no-site-action-running'],
      update_site: ['committed-revision', 'intermediate-commits', 'deployment-full', 'no-site-action-running'],
      update_software: ['committed-revision', 'intermediate-commits', 'deployment-basic', 'no-site-action-running'],
      redeploy_server: ['target-nodes', 'committed-revision', 'deployment-basic', 'no-site-action-running'],
      relabel_nodes: ['target-nodes', 'committed-revision', 'deployment-basic', 'no-site-action-running'],
      test_site: []
    })
  })

  it('tags a site action a failure when any task the catalog\'s tag rule watches failed', () => {
    for (const watched of TAG_WATCHED_TASKS) {
      const states: Record<string, string> = { 'armada_build.armada_get_releases': 'success', [watched]: 'upstream_failed' }
      expect(siteActionTag((t) => states[t] ?? null)).toBe('site-action-failure')
    }
    expect(siteActionTag((t) => t === 'armada_build.armada_get_releases' ? 'success' : null)).toBe('site-action-success')
  })
})
