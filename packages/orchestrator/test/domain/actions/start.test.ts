// Starting a saved action's run over the fakes: the conf the engine gets, a refused trigger saved as failed to start,
// a lost answer left pending (or started when the engine has the run), a pending start settled after its grace, and
// a paused DAG unpaused unless a run of it is in progress.
import { describe, expect, it, onTestFinished } from 'vitest'
import { DownstreamError } from '@slipway/common'
import { openSqlite } from '../../../src/db/sqlite.ts'
import { directReads } from '../../../src/domain/engine/engine-reads.ts'
import { ACTIONS } from '../../../src/domain/catalog.ts'
import { createActionStarter } from '../../../src/domain/actions/start.ts'
import { actionRecord } from '../../helpers/action-record.ts'
import { fakeEngine } from '../../helpers/fakes.ts'

const CTX = { contextMarker: 'm', user: 'admin' }

/** A starter over the fake engine and an in-memory database; `clock` is the time it reads. */
async function starter () {
  const engine = fakeEngine()
  const repos = openSqlite(':memory:')
  onTestFinished(async () => { await repos.close() })
  const clock = { ms: Date.now() }
  const start = createActionStarter({
    repos, engine: engine.client, reads: directReads(engine.client), designRef: (id) => `design/${id}`, graceMs: 60_000, now: () => clock.ms
  })
  const saved = actionRecord({ name: 'relabel_nodes', dag_id: 'relabel_nodes', parameters: { target_nodes: ['n1', 'n2'] }, start_state: 'pending' })
  await repos.actions.insert(saved, { audit: { id: saved.id, action_id: saved.id, command: 'invoke', user: 'admin', datetime: saved.datetime } })
  return { engine, repos, clock, start, saved, kind: ACTIONS.relabel_nodes! }
}

describe('the starter', () => {
  it('triggers the run with the action id as run id and the conf rebuilt from the action, target_nodes as one string', async () => {
    const s = await starter()
    const run = await s.start.trigger(s.saved, s.kind, CTX)
    expect(run.dag_run_id).toBe(s.saved.id)
    expect(run.conf).toMatchObject({ action: { id: s.saved.id, parameters: { target_nodes: 'n1,n2' }, committed_rev_id: 3 }, design_ref: 'design/3' })
    expect(await s.repos.actions.get(s.saved.id)).toMatchObject({ start_state: 'started' })
  })

  it('saves a start the engine refused as failed to start: a 503 naming the action, not to be retried', async () => {
    const s = await starter()
    s.engine.client.trigger = async () => { throw new DownstreamError('engine', 'DAG is broken', { upstreamStatus: 400 }) }
    await expect(s.start.trigger(s.saved, s.kind, CTX)).rejects.toMatchObject({ statusCode: 503, retry: false })
    expect(await s.repos.actions.get(s.saved.id)).toMatchObject({ start_state: 'failed', start_reason: expect.stringMatching(/^The engine refused the trigger/) })
  })

  it('leaves a start whose answer was lost pending, or started when the engine has the run after all', async () => {
    const s = await starter()
    const trigger = s.engine.client.trigger
    let made = false
    s.engine.client.trigger = async (...args) => {
      if (made) await trigger(...args)
      throw new DownstreamError('engine', 'socket hang up', { failure: 'unreachable' })
    }
    await expect(s.start.trigger(s.saved, s.kind, CTX)).rejects.toMatchObject({ statusCode: 503, retry: true })
    expect(await s.repos.actions.get(s.saved.id)).toMatchObject({ start_state: 'pending' })
    made = true
    expect((await s.start.trigger(s.saved, s.kind, CTX)).dag_run_id).toBe(s.saved.id)
    expect(await s.repos.actions.get(s.saved.id)).toMatchObject({ start_state: 'started' })
  })

  it('settles a pending start: started once the engine has its run, failed only when the grace has run out without one', async () => {
    const s = await starter()
    const sent = { ...s.saved, trigger_at: new Date(s.clock.ms).toISOString() }
    expect(await s.start.settle(sent, CTX)).toBe('pending')
    s.clock.ms += 60_000
    expect(await s.start.settle(sent, CTX)).toBe('failed')
    expect(await s.repos.actions.get(s.saved.id)).toMatchObject({ start_state: 'failed' })
    await s.engine.client.trigger('relabel_nodes', s.saved.id, {}, CTX)
    expect(await s.start.settle(sent, CTX)).toBe('started')
  })

  it('unpauses a paused DAG before a start, unless a run of it is in progress (an action paused on purpose)', async () => {
    const s = await starter()
    await s.engine.client.setPaused('relabel_nodes', true, CTX)
    await s.start.prepareDag('relabel_nodes', CTX)
    expect((await s.engine.client.dag('relabel_nodes', CTX)).is_paused).toBe(false)
    await s.engine.client.trigger('relabel_nodes', 'other', {}, CTX)
    await s.engine.client.setPaused('relabel_nodes', true, CTX)
    await s.start.prepareDag('relabel_nodes', CTX)
    expect((await s.engine.client.dag('relabel_nodes', CTX)).is_paused).toBe(true)
  })
})
