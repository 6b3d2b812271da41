// GET /workflows' views kept per run object: the engine watch's unchanged run is not made again, a changed one
// (a new object) is, and the list stays sorted by date.
import { describe, expect, it } from 'vitest'
import type { RequestContext } from '@slipway/common'
import type { EngineClient, EngineRun } from '../../src/clients/engine.ts'
import type { EngineReads } from '../../src/domain/engine/engine-watch.ts'
import type { Repositories } from '../../src/db/repositories.ts'
import { createWorkflows } from '../../src/domain/workflows.ts'

const runOf = (id: string, date: string, state: string): EngineRun =>
  ({ dag_id: 'deploy_site', dag_run_id: id, logical_date: date, run_after: date, state, run_type: 'manual' } as unknown as EngineRun)

describe('GET /workflows\' kept views', () => {
  it('hands out an unchanged run\'s view as made before and makes a changed run\'s again', async () => {
    const runs = [runOf('R2', '2026-11-26T11:00:00Z', 'running'), runOf('R1', '2026-11-26T10:00:00Z', 'success')]
    const reads = { runs: async () => [...runs] } as unknown as EngineReads
    const workflows = createWorkflows({ engine: {} as EngineClient, reads, repos: {} as Repositories })
    const list = async () => await workflows.list(new Date(0), {} as RequestContext)

    const first = await list()
    expect(first.map((w) => [w.run_id, w.state])).toEqual([['R1', 'success'], ['R2', 'running']])
    const second = await list()
    expect(second[0]).toBe(first[0])
    expect(second[1]).toBe(first[1])

    runs[0] = runOf('R2', '2026-11-26T11:00:00Z', 'success')
    const third = await list()
    expect(third.map((w) => [w.run_id, w.state])).toEqual([['R1', 'success'], ['R2', 'success']])
    expect(third[0]).toBe(first[0])
    expect(third[1]).not.toBe(first[1])
  })
})
