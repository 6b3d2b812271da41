// GET /actions' whole list read in pages while it is written: the database read page by page as the entries are
// taken, each page's runs and steps read for that page only, the same answer as one read of everything.
import { describe, expect, it } from 'vitest'
import type { RequestContext } from '@slipway/common'
import type { Repositories } from '../../../src/db/repositories.ts'
import { actionRecord } from '../../helpers/action-record.ts'
import type { EngineRun } from '../../../src/clients/engine.ts'
import { createActionList } from '../../../src/domain/actions/list.ts'
import type { EngineReads } from '../../../src/domain/engine/engine-reads.ts'
import type { StepState } from '../../../src/domain/steps.ts'
import type { Notes } from '../../../src/domain/notes.ts'

const COUNT = 1234

function world (fresh: boolean) {
  const ids = Array.from({ length: COUNT }, (_, i) => `A${String(i).padStart(5, '0')}`)
  const records = ids.map((id, i) => actionRecord({ id, name: 'test_site', dag_id: 'test_site', validation_failed: i % 10 === 3, datetime: '2026-11-26T10:00:00.000Z' }))
  const run = (id: string, i: number): EngineRun => ({ dag_id: 'test_site', dag_run_id: id, state: i % 3 === 0 ? 'failed' : 'success' } as unknown as EngineRun)
  const runs = ids.map(run)
  const steps = ids.map((id, i): StepState => ({ dag_id: 'test_site', dag_run_id: id, task_id: 'action_xcom', map_index: -1, state: i % 3 === 0 ? 'failed' : 'success' }))
  const calls: string[] = []
  const repos = {
    actions: {
      list: async () => { calls.push('list'); return records.map((r) => ({ ...r })) },
      page: async (after: string, limit: number) => {
        calls.push(`page ${after}`)
        return records.filter((r) => r.id > after).slice(0, limit).map((r) => ({ ...r }))
      }
    }
  } as unknown as Repositories
  const reads = {
    version: () => fresh ? 'fresh' : undefined,
    runs: async (filter: { runIds?: string[] }) => {
      calls.push(`runs ${filter.runIds?.length ?? 'all'}`)
      return filter.runIds === undefined ? runs : runs.filter((r) => filter.runIds!.includes(r.dag_run_id))
    },
    isPaused: async () => false,
    tasksOfRuns: async (filter: { runIds: string[] }) => {
      calls.push(`tasksOfRuns ${filter.runIds.length}`)
      return steps.filter((s) => filter.runIds.includes(s.dag_run_id))
    }
  } as unknown as EngineReads
  const reader = createActionList({
    repos, reads, notes: { forActions: async () => new Map() } as unknown as Notes
  })
  return { reader, calls, records }
}

const ctx = {} as RequestContext

describe('GET /actions read in pages', () => {
  it('reads the next page of records, runs and steps only as the entries are taken, oldest first', async () => {
    const { reader, calls, records } = world(true)
    const { entries } = await reader.listEntries(1, ctx)
    const taken: Array<{ id: string, dag_status: string | null }> = []
    expect(calls.filter((c) => c.startsWith('page'))).toEqual(['page '])
    for await (const entry of entries) {
      taken.push(entry)
      if (taken.length === 499) expect(calls.filter((c) => c.startsWith('page'))).toHaveLength(1)
    }
    expect(calls.filter((c) => c.startsWith('page'))).toEqual(['page ', 'page A00499', 'page A00999'])
    // each page's runs and steps by id, never every run at once
    expect(calls.filter((c) => c.startsWith('runs'))).toEqual(['runs 450', 'runs 450', 'runs 210'])
    expect(taken.map((e) => e.id)).toEqual(records.map((r) => r.id))
    expect(taken.map((e) => e.dag_status).slice(0, 5)).toEqual(['failed', 'success', 'success', null, 'success'])
  })

  it('answers the same as one read of everything, and reads every run once when the reads go to the engine', async () => {
    const paged = world(true)
    const whole = world(false)
    const all = await paged.reader.list(1, ctx)
    expect(await whole.reader.list(1, ctx)).toEqual(all)
    expect(await paged.reader.list(1, ctx, { limit: COUNT })).toEqual(all)
    expect(whole.calls.filter((c) => c.startsWith('runs'))).toEqual(['runs all'])
  })
})
