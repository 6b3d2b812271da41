// The engine watch reads only what changed after its first full read, although the engine's runs and task
// instances carry no `updated_at` (a real Airflow filters on it and never returns it): the watermark is the time the
// last poll began, reached back by the overlap.
import { describe, expect, it } from 'vitest'
import type { EngineClient, EngineRun, EngineTask } from '../../../src/clients/engine.ts'
import { createEngineWatch, directReads } from '../../../src/domain/engine/engine-watch.ts'
import { startedWatch } from '../../helpers/started-watch.ts'

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

/** An engine of `count` runs of deploy_site with two task instances each; what the watch asks for is recorded. */
function engineOfRuns (count: number, state = 'success') {
  const calls: string[] = []
  const runs = new Map<string, EngineRun>()
  const tis = new Map<string, EngineTask[]>()
  const task = (runId: string, taskId: string, taskState: string): EngineTask => ({
    dag_id: 'deploy_site', dag_run_id: runId, task_id: taskId, map_index: -1, state: taskState, hostname: 'worker-1', pool: 'default_pool'
  } as unknown as EngineTask)
  const setRun = (id: string, runState: string, taskState: string): void => {
    runs.set(id, run(id, runState))
    tis.set(id, [task(id, 'preflight', taskState), task(id, 'deploy', taskState)])
  }
  for (let i = 1; i <= count; i++) setRun(`r${i}`, state, state)
  const changes: { runs: EngineRun[], tasks: EngineTask[] } = { runs: [], tasks: [] }
  const engine = {
    dags: async () => [{ dag_id: 'deploy_site', is_paused: false }],
    runs: async () => { calls.push('runs'); return [...runs.values()] },
    run: async (_dag: string, id: string) => { calls.push(`run ${id}`); return runs.get(id) },
    tasks: async (_dag: string, id: string) => { calls.push(`tasks ${id}`); return tis.get(id) ?? [] },
    tasksOfRuns: async (filter: { runIds: string[] }) => {
      calls.push(`tasksOfRuns ${filter.runIds.join(',')}`)
      return filter.runIds.flatMap((id) => tis.get(id) ?? [])
    },
    changedSince: async () => ({ runs: changes.runs.splice(0), tasks: changes.tasks.splice(0) })
  } as unknown as EngineClient
  return { engine, calls, runs, tis, setRun, changes }
}

describe('engine watch holding a long history', () => {
  it('keeps only the steps\' states of a run that ended a while ago, and reads its task instances from the engine', async () => {
    const { engine, calls } = engineOfRuns(1, 'running')
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, now: () => clock })
    await watch.poll()
    calls.length = 0
    // while the run moves and for keepTasksMs after it last changed, its task instances come from the watch
    expect((await watch.reads.tasks('deploy_site', 'r1')).map((t) => t.hostname)).toEqual(['worker-1', 'worker-1'])
    clock += 30_000
    await watch.poll()
    expect(calls).toEqual([])
    expect(await watch.reads.tasks('deploy_site', 'r1')).toHaveLength(2)
    expect(calls).toEqual([])
  })

  it('compacts an ended run after keepTasksMs: the list still reads its steps from the watch, one run\'s reads go to the engine', async () => {
    const { engine, calls, setRun, changes, runs, tis } = engineOfRuns(1, 'running')
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, now: () => clock })
    await watch.poll()
    setRun('r1', 'success', 'success')
    changes.runs.push(runs.get('r1')!)
    changes.tasks.push(...tis.get('r1')!)
    clock += 1000
    await watch.poll()
    clock += 60_000
    await watch.poll()
    calls.length = 0
    const steps = await watch.reads.tasksOfRuns({ dagIds: ['deploy_site'], runIds: ['r1'] })
    expect(steps).toEqual([
      { dag_id: 'deploy_site', dag_run_id: 'r1', task_id: 'preflight', map_index: -1, state: 'success' },
      { dag_id: 'deploy_site', dag_run_id: 'r1', task_id: 'deploy', map_index: -1, state: 'success' }
    ])
    expect(calls).toEqual([])
    expect((await watch.reads.tasks('deploy_site', 'r1')).map((t) => t.hostname)).toEqual(['worker-1', 'worker-1'])
    expect(calls).toEqual(['tasks r1'])
  })

  it('reads a compacted run whole again when it changes, and serves it from the watch after that', async () => {
    const { engine, calls, setRun, changes, runs, tis } = engineOfRuns(2)
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, now: () => clock })
    await watch.poll()
    // r2 cleared in the engine: the change lists the run and one task instance of it
    setRun('r2', 'queued', 'success')
    const cleared = { ...tis.get('r2')![0]!, state: null }
    tis.set('r2', [cleared, tis.get('r2')![1]!])
    changes.runs.push(runs.get('r2')!)
    changes.tasks.push(cleared)
    calls.length = 0
    clock += 1000
    await watch.poll()
    expect(calls).toEqual(['tasksOfRuns r2'])
    calls.length = 0
    expect((await watch.reads.tasks('deploy_site', 'r2')).map((t) => t.state)).toEqual([null, 'success'])
    expect(calls).toEqual([])
    await watch.reads.tasks('deploy_site', 'r1')
    expect(calls).toEqual(['tasks r1'])
  })

  it('resyncs the run list with the task instances of the moving runs and a slice of the ended ones, in turn', async () => {
    const { engine, calls, runs, setRun } = engineOfRuns(5)
    setRun('r6', 'running', 'running')
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({
      engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, resyncMs: 10_000, resyncSlice: 2, now: () => clock
    })
    await watch.poll()
    expect(calls).toEqual(['runs', 'tasksOfRuns r1,r2,r3,r4,r5,r6'])
    const resyncs: string[] = []
    for (let i = 0; i < 3; i++) {
      calls.length = 0
      clock += 10_000
      await watch.poll()
      resyncs.push(...calls)
    }
    expect(resyncs).toEqual(['runs', 'tasksOfRuns r6,r1,r2', 'runs', 'tasksOfRuns r6,r3,r4', 'runs', 'tasksOfRuns r6,r5'])
    // a run deleted in the engine leaves the watch at the next resync
    runs.delete('r3')
    calls.length = 0
    clock += 10_000
    await watch.poll()
    expect(await watch.reads.tasksOfRuns({ dagIds: ['deploy_site'], runIds: ['r3'] })).toEqual([])
    expect(await watch.reads.run('deploy_site', 'r3')).toBeUndefined()
  })
})

describe('engine watch version (the action list\'s conditional reads)', () => {
  it('stays while polls find nothing new, changes with a run\'s or a step\'s state, a new run or a pause, and is undefined once stale', async () => {
    const { engine, setRun, changes, runs, tis } = engineOfRuns(2)
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 10_000, keepTasksMs: 60_000, resyncMs: 5000, now: () => clock })
    await watch.poll()
    const first = watch.reads.version()
    expect(first).toBeDefined()
    // the same runs and task instances reported again (the overlap), and a resync reading them all: no change
    changes.runs.push(runs.get('r1')!)
    changes.tasks.push(...tis.get('r1')!)
    clock += 1000
    await watch.poll()
    clock += 5000
    await watch.poll()
    expect(watch.reads.version()).toBe(first)

    const versions = new Set([first])
    const changedNow = (): boolean => {
      const v = watch.reads.version()
      const fresh = v !== undefined && !versions.has(v)
      versions.add(v)
      return fresh
    }
    // a step's state
    const step = { ...tis.get('r1')![0]!, state: 'failed' }
    tis.set('r1', [step, tis.get('r1')![1]!])
    changes.tasks.push(step)
    clock += 1000
    await watch.poll()
    expect(changedNow()).toBe(true)
    // a run's state
    setRun('r2', 'running', 'success')
    changes.runs.push(runs.get('r2')!)
    clock += 1000
    await watch.poll()
    expect(changedNow()).toBe(true)
    // a new run, then this process pausing a DAG
    watch.reads.triggered(run('r3', 'queued'))
    expect(changedNow()).toBe(true)
    watch.reads.paused('deploy_site', true)
    expect(changedNow()).toBe(true)
    watch.reads.paused('deploy_site', true)
    expect(changedNow()).toBe(false)
    // stale: reads go to the engine, and nothing says cheaply what changed
    clock += 11_000
    expect(watch.reads.version()).toBeUndefined()
  })
})

describe('engine watch summaries of ended runs', () => {
  it('keeps an ended run\'s few fields and its steps\' states, the same list while asked for, and a changed step among the others', async () => {
    const { engine, setRun, changes, runs, tis } = engineOfRuns(1, 'running')
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, now: () => clock })
    await watch.poll()
    setRun('r1', 'success', 'success')
    runs.set('r1', { ...runs.get('r1')!, conf: { action: { id: 'r1', parameters: { big: 'x'.repeat(1000) } } }, run_type: 'manual' } as EngineRun)
    changes.runs.push(runs.get('r1')!)
    changes.tasks.push(...tis.get('r1')!)
    clock += 1000
    await watch.poll()
    expect((await watch.reads.run('deploy_site', 'r1'))?.conf).toBeDefined()
    clock += 60_000
    await watch.poll()
    const kept = await watch.reads.run('deploy_site', 'r1')
    expect(kept).toEqual({ dag_id: 'deploy_site', dag_run_id: 'r1', state: 'success', logical_date: null, run_type: 'manual' })
    const first = await watch.reads.tasksOfRuns({ dagIds: ['deploy_site'], runIds: ['r1'] })
    const again = await watch.reads.tasksOfRuns({ dagIds: ['deploy_site'], runIds: ['r1'] })
    expect(again[0]).toBe(first[0])
    expect(first.map((t) => [t.task_id, t.state])).toEqual([['preflight', 'success'], ['deploy', 'success']])

    // one step cleared in the engine: until the run is read whole, the list shows it beside the other step
    const cleared = { ...tis.get('r1')![1]!, state: null }
    changes.tasks.push(cleared)
    ;(engine as { tasksOfRuns: unknown }).tasksOfRuns = async () => { throw new Error('engine down') }
    clock += 1000
    await expect(watch.poll()).rejects.toThrow('engine down')
    expect((await watch.reads.tasksOfRuns({ dagIds: ['deploy_site'], runIds: ['r1'] })).map((t) => [t.task_id, t.state]))
      .toEqual([['preflight', 'success'], ['deploy', null]])
  })
})

describe('engine reads of a few runs by id (a window of the action list)', () => {
  it('looks them up in a fresh watch without an engine call, and narrows the engine\'s answer without one', async () => {
    const { engine, calls } = engineOfRuns(3)
    const clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, now: () => clock })
    await watch.poll()
    calls.length = 0
    const ids = async (reads: typeof watch.reads, runIds: string[]) =>
      (await reads.runs({ dagIds: ['deploy_site'], runIds })).map((r) => r.dag_run_id)
    expect(await ids(watch.reads, ['r3', 'r1', 'nope'])).toEqual(['r3', 'r1'])
    expect(calls).toEqual([])
    expect((await ids(directReads(engine), ['r3', 'r1', 'nope'])).sort()).toEqual(['r1', 'r3'])
    expect(calls).toEqual(['runs'])
  })
})

describe('engine watch resync of summarized runs', () => {
  it('keeps a summarized run\'s object while a resync reads it as it was, and takes a changed one', async () => {
    const { engine, runs } = engineOfRuns(2)
    let clock = Date.parse('2026-11-26T10:00:00.000Z')
    const watch = startedWatch({ engine, intervalMs: 1000, staleMs: 600_000, keepTasksMs: 60_000, resyncMs: 10_000, now: () => clock })
    await watch.poll()
    const before = await watch.reads.run('deploy_site', 'r1')
    clock += 10_000
    await watch.poll()
    expect(await watch.reads.run('deploy_site', 'r1')).toBe(before)
    runs.set('r2', { ...runs.get('r2')!, end_date: '2026-11-26T11:00:00Z' } as EngineRun)
    clock += 10_000
    await watch.poll()
    expect((await watch.reads.run('deploy_site', 'r2'))?.end_date).toBe('2026-11-26T11:00:00Z')
  })
})
