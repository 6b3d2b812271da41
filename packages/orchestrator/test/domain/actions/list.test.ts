// GET /actions' entries kept per action: an action whose record, run and steps are the very same objects as at the
// last read is not made again, and any change to them (a step's state, the run, the record's start, the DAG's
// pause) shows at once; notes are read fresh every time.
import { describe, expect, it } from 'vitest'
import type { RequestContext } from '@slipway/common'
import type { ActionRecord, Repositories } from '../../../src/db/repositories.ts'
import { actionRecord } from '../../helpers/action-record.ts'
import type { EngineRun } from '../../../src/clients/engine.ts'
import { createActionList } from '../../../src/domain/actions/list.ts'
import type { EngineReads } from '../../../src/domain/engine/engine-reads.ts'
import type { StepState } from '../../../src/domain/steps.ts'
import type { NoteView, Notes } from '../../../src/domain/notes.ts'

const record = (id: string, over: Partial<ActionRecord> = {}): ActionRecord =>
  actionRecord({ id, name: 'test_site', dag_id: 'test_site', ...over })

const runOf = (id: string, state: string): EngineRun => ({ dag_id: 'test_site', dag_run_id: id, state } as unknown as EngineRun)
const stepOf = (id: string, taskId: string, state: string | null): StepState =>
  ({ dag_id: 'test_site', dag_run_id: id, task_id: taskId, map_index: -1, state } as StepState)

/** A database that reads fresh records every time (as SQLite and PostgreSQL do) and a watch that keeps its objects. */
function world () {
  const records = new Map([['A1', record('A1')], ['A2', record('A2')]])
  const runs = new Map([['A1', runOf('A1', 'success')], ['A2', runOf('A2', 'running')]])
  const steps = new Map<string, StepState[]>([
    ['A1', [stepOf('A1', 'action_xcom', 'success')]],
    ['A2', [stepOf('A2', 'action_xcom', 'running')]]
  ])
  const paused = { value: false }
  const notes = new Map<string, NoteView[]>()
  const fresh = (): ActionRecord[] => [...records.values()].map((r) => ({ ...r }))
  const repos = {
    actions: {
      list: async () => fresh(),
      page: async (after: string, limit: number) => fresh().filter((r) => r.id > after).slice(0, limit)
    }
  } as unknown as Repositories
  const reads = {
    version: () => 'fresh',
    runs: async () => [...runs.values()],
    isPaused: async () => paused.value,
    tasksOfRuns: async () => [...steps.values()].flat()
  } as unknown as EngineReads
  const reader = createActionList({
    repos,
    reads,
    notes: { forActions: async () => notes } as unknown as Notes
  })
  const list = async () => await reader.list(1, {} as RequestContext)
  return { records, runs, steps, paused, notes, list }
}

describe('GET /actions\' kept entries', () => {
  it('hands out an unchanged action\'s entry as made before, with its notes read fresh', async () => {
    const w = world()
    const first = await w.list()
    const second = await w.list()
    expect(second).toEqual(first)
    expect(second[0]?.steps).toBe(first[0]?.steps)
    expect(second[1]?.steps).toBe(first[1]?.steps)

    const note = { note_id: 'N1', note_val: 'looked at' } as unknown as NoteView
    w.notes.set('A1', [note])
    const third = await w.list()
    expect(third[0]?.notes).toEqual([note])
    expect(third[0]?.steps).toBe(first[0]?.steps)
  })

  it('makes an action again when its step, run, record or DAG pause changes, and only that action', async () => {
    const w = world()
    const first = await w.list()
    expect(first.map((a) => a.action_lifecycle)).toEqual(['Complete', 'Processing'])

    // the watch hands out a new object for a changed step
    w.steps.set('A2', [stepOf('A2', 'action_xcom', 'success')])
    w.runs.set('A2', runOf('A2', 'success'))
    const second = await w.list()
    expect(second[1]).toMatchObject({ dag_status: 'success', action_lifecycle: 'Complete' })
    expect(second[1]?.steps[0]?.state).toBe('success')
    expect(second[0]?.steps).toBe(first[0]?.steps)

    // a record whose start failed: the same run and steps, a new start state
    w.records.set('A1', record('A1', { start_state: 'failed', start_reason: 'engine down' }))
    w.runs.delete('A1')
    w.steps.delete('A1')
    expect((await w.list())[0]).toMatchObject({ start_status: 'failed_to_start', start_reason: 'engine down', action_lifecycle: 'Failed', steps: [] })

    w.paused.value = true
    w.runs.set('A2', runOf('A2', 'running'))
    expect((await w.list())[1]).toMatchObject({ action_lifecycle: 'Paused' })
  })

  it('keeps the entries of the newest 1,000 actions of a read that spans pages, and makes older ones again', async () => {
    const w = world()
    w.records.clear()
    w.runs.clear()
    w.steps.clear()
    const ids = Array.from({ length: 2345 }, (_, i) => `A${String(i).padStart(5, '0')}`)
    for (const id of ids) {
      w.records.set(id, record(id))
      w.runs.set(id, runOf(id, 'success'))
      w.steps.set(id, [stepOf(id, 'action_xcom', 'success')])
    }
    const first = await w.list()
    const second = await w.list()
    expect(second).toEqual(first)
    const reused = second.map((entry, i) => entry.steps === first[i]?.steps)
    expect(reused.slice(-1000).every((same) => same)).toBe(true)
    expect(reused.slice(0, -1000).some((same) => same)).toBe(false)
  })
})
