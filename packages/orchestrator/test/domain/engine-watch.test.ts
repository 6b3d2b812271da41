// The engine watch reads only what changed after its first full read, although the engine's runs and task
// instances carry no `updated_at` (a real Airflow filters on it and never returns it): the watermark is the time the
// last poll began, reached back by the overlap.
import { describe, expect, it } from 'vitest'
import type { EngineClient, EngineRun } from '../../src/clients/engine.ts'
import { createEngineWatch } from '../../src/domain/engine-watch.ts'

const run = (id: string, state: string): EngineRun => ({ dag_id: 'deploy_site', dag_run_id: id, state, logical_date: null } as unknown as EngineRun)

function fakeEngine () {
  const calls: string[] = []
  const runs = new Map<string, EngineRun>([['r1', run('r1', 'running')]])
  const engine = {
    dags: async () => { calls.push('dags'); return [{ dag_id: 'deploy_site', is_paused: false }] },
    runs: async () => { calls.push('runs'); return [...runs.values()] },
    tasksOfRuns: async () => { calls.push('tasksOfRuns'); return [] },
    changedSince: async (since: string) => { calls.push(`changedSince ${since}`); return { runs: [...runs.values()], tasks: [] } }
  } as unknown as EngineClient
  return { engine, calls, runs }
}

describe('engine watch watermark', () => {
  it('after the first full read, polls only what changed since the previous poll began, less the overlap', async () => {
    const { engine, calls, runs } = fakeEngine()
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = createEngineWatch({ engine, intervalMs: 1000, staleMs: 60_000, now: () => clock })
    await watch.poll()
    expect(calls).toEqual(['dags', 'runs', 'tasksOfRuns'])

    calls.length = 0
    clock += 1000
    runs.set('r1', run('r1', 'success'))
    await watch.poll()
    expect(calls).toEqual(['dags', 'changedSince 2026-11-26T09:59:55.000Z'])

    calls.length = 0
    clock += 1000
    await watch.poll()
    expect(calls).toEqual(['dags', 'changedSince 2026-11-26T09:59:56.000Z'])
  })

  it('a failed poll leaves the watermark where the last good poll began', async () => {
    const { engine, calls } = fakeEngine()
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = createEngineWatch({ engine, intervalMs: 1000, staleMs: 60_000, now: () => clock })
    await watch.poll()
    const changedSince = engine.changedSince
    ;(engine as { changedSince: unknown }).changedSince = async () => { throw new Error('engine down') }
    clock += 1000
    await expect(watch.poll()).rejects.toThrow('engine down')
    ;(engine as { changedSince: unknown }).changedSince = changedSince
    calls.length = 0
    clock += 1000
    await watch.poll()
    expect(calls).toEqual(['dags', 'changedSince 2026-11-26T09:59:55.000Z'])
  })
})
