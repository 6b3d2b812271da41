// The engine watch's stored run summaries on SQLite and PostgreSQL: written and read back as written, replaced by a
// later write, found by key and by DAG, kept across a restart.
import { describe, expect, it } from 'vitest'
import { DATABASES } from '../helpers/databases.ts'
import { decodeSummary, encodeSummary } from '../../src/domain/engine/run-summaries.ts'
import type { EngineRun } from '../../src/clients/engine.ts'
import type { StepState } from '../../src/domain/steps.ts'

const run = (dagId: string, id: string, state: string): EngineRun => ({
  dag_id: dagId,
  dag_run_id: id,
  state,
  logical_date: id === 'b' ? null : '2026-11-26T10:00:00.123456Z',
  run_after: '2026-11-26T10:00:00Z',
  start_date: '2026-11-26T10:00:01Z',
  end_date: '2026-11-26T10:05:00Z',
  run_type: 'manual',
  conf: { not: 'kept' }
} as unknown as EngineRun)
const steps = (dagId: string, id: string, state: string | null): StepState[] => [
  { dag_id: dagId, dag_run_id: id, task_id: 'preflight', map_index: -1, state },
  { dag_id: dagId, dag_run_id: id, task_id: 'deploy.one', map_index: undefined, state: null },
  { dag_id: dagId, dag_run_id: id, task_id: 'ünïcode "quoted"', map_index: 3, state: 'skipped' }
] as StepState[]

describe.each(DATABASES)('$name: run summaries', (backend) => {
  it.skipIf(backend.skip)('reads a summary back as written, a later write replacing it, by key or DAG, across a restart', async () => {
    const { repos, reopen } = await backend.open()
    const store = repos.runSummaries!
    await store.put([encodeSummary(run('deploy_site', 'b', 'success'), steps('deploy_site', 'b', 'success'))])
    await store.put([
      encodeSummary(run('deploy_site', 'a', 'failed'), steps('deploy_site', 'a', 'failed')),
      encodeSummary(run('update_site', 'a', 'success'), steps('update_site', 'a', 'success')),
      // the same run again: replaces the first write
      encodeSummary(run('deploy_site', 'b', 'failed'), steps('deploy_site', 'b', 'upstream_failed'))
    ])
    await repos.close()
    const again = (await reopen()).runSummaries!
    const found = (await again.get([{ dag_id: 'deploy_site', run_id: 'b' }, { dag_id: 'update_site', run_id: 'a' }, { dag_id: 'x', run_id: 'a' }]))
      .map(decodeSummary).sort((x, y) => x.run.dag_id.localeCompare(y.run.dag_id))
    // the run's few fields the orchestrator reads, not its conf
    const slim = (r: EngineRun): unknown => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'conf'))
    expect(found.map((f) => ({ ...f, run: { ...f.run } }))).toStrictEqual([
      { run: slim(run('deploy_site', 'b', 'failed')), steps: steps('deploy_site', 'b', 'upstream_failed') },
      { run: slim(run('update_site', 'a', 'success')), steps: steps('update_site', 'a', 'success') }
    ])
    expect((await again.all()).map((r) => [r.dag_id, r.run_id, r.logical_date]))
      .toEqual([['deploy_site', 'a', '2026-11-26T10:00:00.123456Z'], ['update_site', 'a', '2026-11-26T10:00:00.123456Z'], ['deploy_site', 'b', null]])
    expect((await again.all(['deploy_site'])).map((r) => r.run_id)).toEqual(['a', 'b'])
    expect((await again.keys()).map((k) => `${k.dag_id}/${k.run_id}`).sort()).toEqual(['deploy_site/a', 'deploy_site/b', 'update_site/a'])
    expect(await again.get([])).toEqual([])
  })
})
