// The engine watch with a store for the summaries of runs that ended for good: it holds nothing of them once they
// are written, its reads answer from the store as they did from memory, a restart does not hold them again, and
// its resync asks the engine only for the runs not ended and those changed.
import { describe, expect, it, onTestFinished } from 'vitest'
import type { EngineClient, EngineRun, EngineTask } from '../../../src/clients/engine.ts'
import { createEngineWatch } from '../../../src/domain/engine/engine-watch.ts'
import { openSqlite } from '../../../src/db/sqlite.ts'
import type { RunSummaryStore } from '../../../src/db/run-summaries.ts'
import { startedWatch } from '../../helpers/started-watch.ts'

const DAG = 'deploy_site'

function engineOfRuns () {
  const calls: string[] = []
  const runs = new Map<string, EngineRun>()
  const tis = new Map<string, EngineTask[]>()
  const task = (runId: string, taskId: string, state: string | null, mapIndex?: number): EngineTask => ({
    dag_id: DAG, dag_run_id: runId, task_id: taskId, map_index: mapIndex, state, hostname: 'worker-1', pool: 'default_pool'
  } as unknown as EngineTask)
  const setRun = (id: string, state: string, taskState: string | null): void => {
    const endDate = state === 'running' ? null : '2026-11-26T10:01:00Z'
    runs.set(id, {
      dag_id: DAG, dag_run_id: id, state, logical_date: `2026-11-26T10:00:0${id.slice(1)}.000000Z`, run_after: null, start_date: '2026-11-26T10:00:00Z', end_date: endDate, run_type: 'manual', conf: { big: 'x' }
    } as unknown as EngineRun)
    tis.set(id, [task(id, 'preflight', taskState, -1), task(id, 'deploy', taskState)])
  }
  const changes: { runs: EngineRun[], tasks: EngineTask[] } = { runs: [], tasks: [] }
  const engine = {
    dags: async () => [{ dag_id: DAG, is_paused: false }],
    runs: async (filter: { states?: string[] }) => {
      calls.push(`runs ${filter.states?.join(',') ?? 'all'}`)
      return [...runs.values()].filter((r) => filter.states === undefined || filter.states.includes(r.state))
    },
    run: async (_dag: string, id: string) => { calls.push(`run ${id}`); return runs.get(id) },
    tasks: async (_dag: string, id: string) => { calls.push(`tasks ${id}`); return tis.get(id) ?? [] },
    tasksOfRuns: async (filter: { runIds: string[] }) => {
      calls.push(`tasksOfRuns ${filter.runIds.join(',')}`)
      return filter.runIds.flatMap((id) => tis.get(id) ?? [])
    },
    changedSince: async () => { calls.push('changedSince'); return { runs: changes.runs.splice(0), tasks: changes.tasks.splice(0) } }
  } as unknown as EngineClient
  return { engine, calls, runs, tis, setRun, changes }
}

function summaryStore (): RunSummaryStore {
  const repos = openSqlite(':memory:')
  onTestFinished(async () => { await repos.close() })
  return repos.runSummaries!
}

/** What the action list and one action read of the watch. */
async function readsOf (watch: ReturnType<typeof createEngineWatch>) {
  const ids = ['r1', 'r2', 'r3', 'r4']
  return {
    all: (await watch.reads.runs({ dagIds: [DAG] })).sort((a, b) => a.dag_run_id.localeCompare(b.dag_run_id)),
    byId: (await watch.reads.runs({ dagIds: [DAG], runIds: ids })).sort((a, b) => a.dag_run_id.localeCompare(b.dag_run_id)),
    since: (await watch.reads.runs({ logicalDateGte: '2026-11-26T10:00:02.000Z' })).map((r) => r.dag_run_id).sort(),
    one: await watch.reads.run(DAG, 'r2'),
    steps: (await watch.reads.tasksOfRuns({ dagIds: [DAG], runIds: ids }))
      .map((s) => JSON.stringify([s.dag_run_id, s.task_id, s.map_index, s.state])).sort()
  }
}

describe('engine watch with a store for ended runs', () => {
  it('holds nothing of a run that ended for good, and answers the same from its stored summary', async () => {
    const { engine, calls, setRun } = engineOfRuns()
    for (const id of ['r1', 'r2', 'r3']) setRun(id, id === 'r2' ? 'failed' : 'success', id === 'r2' ? 'failed' : 'success')
    setRun('r4', 'running', null)
    const clock = Date.parse('2026-11-26T11:00:00.000Z')
    const store = summaryStore()
    // the same reads from a watch that keeps its summaries itself, as before
    const plain = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, now: () => clock })
    await plain.poll()
    const expected = await readsOf(plain)
    plain.stop()
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, store, now: () => clock })
    await watch.poll()
    expect(watch.status().held).toBe(1)
    expect((await store.keys()).map((k) => k.run_id).sort()).toEqual(['r1', 'r2', 'r3'])
    calls.length = 0
    expect(await readsOf(watch)).toEqual(expected)
    expect(calls).toEqual([])
    // a run's whole task instances still come from the engine
    expect((await watch.reads.tasks(DAG, 'r1')).map((t) => t.hostname)).toEqual(['worker-1', 'worker-1'])
    expect(calls).toEqual(['tasks r1'])
  })

  it('writes a run that ends once it stopped changing for keepTasksMs, then holds it no longer', async () => {
    const { engine, setRun, changes, runs, tis } = engineOfRuns()
    setRun('r1', 'running', 'running')
    let clock = Date.parse('2026-11-26T11:00:00.000Z')
    const store = summaryStore()
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, store, now: () => clock })
    await watch.poll()
    setRun('r1', 'success', 'success')
    changes.runs.push(runs.get('r1')!)
    changes.tasks.push(...tis.get('r1')!)
    clock += 1000
    await watch.poll()
    expect(watch.status().held).toBe(1)
    expect(await store.keys()).toEqual([])
    clock += 60_000
    await watch.poll()
    expect(watch.status().held).toBe(0)
    expect((await watch.reads.run(DAG, 'r1'))?.state).toBe('success')
    expect((await watch.reads.tasksOfRuns({ runIds: ['r1'] })).map((s) => s.state)).toEqual(['success', 'success'])
    // cleared in the engine: held again, the stored summary no longer read, and written anew when it ends again
    setRun('r1', 'queued', null)
    changes.runs.push(runs.get('r1')!)
    clock += 1000
    await watch.poll()
    expect(watch.status().held).toBe(1)
    expect((await watch.reads.run(DAG, 'r1'))?.state).toBe('queued')
    expect((await watch.reads.tasksOfRuns({ runIds: ['r1'] })).map((s) => s.state)).toEqual([null, null])
    setRun('r1', 'failed', 'failed')
    changes.runs.push(runs.get('r1')!)
    changes.tasks.push(...tis.get('r1')!)
    clock += 1000
    await watch.poll()
    clock += 60_000
    await watch.poll()
    expect(watch.status().held).toBe(0)
    expect((await watch.reads.run(DAG, 'r1'))?.state).toBe('failed')
    expect((await watch.reads.tasksOfRuns({ runIds: ['r1'] })).map((s) => s.state)).toEqual(['failed', 'failed'])
  })

  it('after a restart, holds no run whose summary is stored as it is, and reads no task instance of it', async () => {
    const { engine, calls, setRun } = engineOfRuns()
    setRun('r1', 'success', 'success')
    setRun('r2', 'success', 'success')
    const clock = Date.parse('2026-11-26T11:00:00.000Z')
    const store = summaryStore()
    const first = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, store, now: () => clock })
    await first.poll()
    first.stop()
    setRun('r3', 'success', 'success')
    calls.length = 0
    const again = createEngineWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, store, now: () => clock })
    again.start()
    onTestFinished(() => { again.stop() })
    await again.poll()
    expect(calls).toEqual(['runs all', 'tasksOfRuns r3'])
    expect(again.status().held).toBe(0)
    expect((await store.keys()).map((k) => k.run_id).sort()).toEqual(['r1', 'r2', 'r3'])
  })

  it('resyncs by asking the engine for the runs not ended and those changed, never every run; an unended run deleted leaves', async () => {
    const { engine, calls, setRun, runs } = engineOfRuns()
    for (let i = 1; i <= 5; i++) setRun(`r${i}`, 'success', 'success')
    setRun('r6', 'running', 'running')
    setRun('r7', 'queued', null)
    let clock = Date.parse('2026-11-26T11:00:00.000Z')
    const store = summaryStore()
    const options = { engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, resyncMs: 10_000, store, now: () => clock }
    const watch = startedWatch(options)
    await watch.poll()
    calls.length = 0
    runs.delete('r7')
    clock += 10_000
    await watch.poll()
    expect(calls).toEqual(['runs queued,running', 'changedSince', 'tasksOfRuns r6'])
    expect(watch.status().held).toBe(1)
    expect(await watch.reads.run(DAG, 'r7')).toBeUndefined()
  })
})
