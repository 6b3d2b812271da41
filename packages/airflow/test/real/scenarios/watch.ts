// The orchestrator's engine watch against the real Airflow: every state change of a run, as Airflow itself shows
// it, is shown by the orchestrator within the watch's staleness bound, and Airflow moves `updated_at` on each
// (its `updated_at_gte` filters find the changed item); the engine calls the orchestrator makes per minute, idle
// and with running actions, none of them for a user's reads while the watch is fresh.
import { expect, it } from 'vitest'
import { FINAL } from '../helpers/api.ts'
import { recordFigure } from '../helpers/figures.ts'
import { airflowStates, changesOf, orchestratorStates, RUN, updatedAtMisses, visibility, type Observation } from '../helpers/observe.ts'
import type { EngineCall } from '../helpers/engine-proxy.ts'
import { WATCH, type RealStack } from '../helpers/real-stack.ts'
import { hanging } from './control.ts'

const FINAL_RUN = ['success', 'failed']
const POLL_MS = 250
/** How long each count of engine calls lasts. */
const WINDOW_MS = 15_000

/** The watch's own calls: the DAG list, the full reads (batch lists) and the reads of changes. */
export const isWatchCall = (c: { method: string, path: string }): boolean =>
  c.path.startsWith('/api/v2/dags?') || c.path.includes('updated_at_gte=') ||
  (c.method === 'POST' && (c.path === '/api/v2/dags/~/dagRuns/list' || c.path === '/api/v2/dags/~/dagRuns/~/taskInstances/list'))

/**
 * The calls that reached the engine although the watch was fresh: made more than `slackMs` after a poll that
 * succeeded (every call of it answered 200; a poll begins with the DAG list) had ended, and less than the staleness
 * bound less `slackMs` after it began. A read may call the engine only when the watch is stale.
 */
function whileFresh (all: EngineCall[], reads: EngineCall[], slackMs = 1000): EngineCall[] {
  const polls: Array<{ start: number, end: number, ok: boolean }> = []
  for (const call of all.filter(isWatchCall)) {
    if (call.path.startsWith('/api/v2/dags?')) polls.push({ start: call.at, end: call.done ?? Infinity, ok: true })
    const poll = polls.at(-1)
    if (poll === undefined) continue
    poll.end = Math.max(poll.end, call.done ?? Infinity)
    poll.ok &&= call.status === 200
  }
  return reads.filter((read) => polls.some((p) => p.ok && p.end + slackMs <= read.at && read.at - p.start <= WATCH.staleMs - slackMs))
}

/** The engine calls of the orchestrator during a window of WINDOW_MS, per minute; `meanwhile` runs during it. */
async function callsPerMinute (real: RealStack, meanwhile: (until: number) => Promise<void> = async () => {}) {
  const from = Date.now()
  await meanwhile(from + WINDOW_MS)
  // the count covers the whole window whatever `meanwhile` did
  const rest = from + WINDOW_MS - Date.now()
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest))
  const to = Date.now()
  const calls = real.proxy.between(from, to)
  const perMinute = (n: number): number => Math.round(n * 60_000 / (to - from))
  return {
    all: perMinute(calls.length),
    changeReads: perMinute(calls.filter((c) => c.path.includes('updated_at_gte=')).length),
    fullReads: perMinute(calls.filter((c) => c.path === '/api/v2/dags/~/dagRuns/list').length),
    others: calls.filter((c) => !isWatchCall(c))
  }
}

export function watchScenario (real: RealStack): void {
  it('shows every state change Airflow makes within the watch\'s staleness bound, Airflow moving updated_at on each', async () => {
    const { api } = real
    const id = await api.create('test_site')
    const airflow: Observation[] = []
    const orchestrator: Observation[] = []
    const misses: string[] = []
    const deadline = Date.now() + 180_000
    let lastChange = Date.now()
    for (;;) {
      const requested = Date.now()
      const [engine, action] = await Promise.all([airflowStates(real, 'test_site', id), api.action(id)])
      const answered = Date.now()
      airflow.push({ requested, answered, states: engine })
      orchestrator.push({ requested, answered, states: orchestratorStates(action) })
      const changes = changesOf(airflow.slice(-2))
      if (changes.length > 0) {
        lastChange = answered
        // asked at once, before the item can change again: its updated_at is at or after the moment before
        misses.push(...await updatedAtMisses(real, 'test_site', id, changes))
      }
      const done = FINAL_RUN.includes(String(engine.get(RUN))) && FINAL.includes(action.action_lifecycle)
      if (done && Date.now() >= lastChange + WATCH.staleMs + 1000) break
      if (Date.now() > deadline) throw new Error(`test_site ${id} did not end within 180 s: ${real.tail()}`)
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    const changes = changesOf(airflow)
    // the run and its four tasks each seen to change (how many states between is up to the sampling: Airflow 3.3
    // runs a task so quickly that scheduled, queued and running may all fall between two samples)
    expect(new Set(changes.map((c) => c.key)).size).toBeGreaterThanOrEqual(5)
    expect(changes.filter((c) => c.key === RUN).map((c) => c.to)).toContain('success')
    const { lags, late, unchecked } = visibility(airflow, orchestrator, WATCH.staleMs)
    expect(late, `shown later than ${WATCH.staleMs} ms`).toEqual([])
    expect(unchecked).toEqual([])
    expect(misses, 'changes whose updated_at did not move').toEqual([])
    lags.sort((a, b) => a.ms - b.ms)
    recordFigure('watch lag (Airflow shows a state -> the orchestrator shows it)',
      `median ${lags[Math.floor(lags.length / 2)]!.ms} ms, max ${lags.at(-1)!.ms} ms over ${lags.length} changes (the longest: ${lags.at(-1)!.change})`)
  })

  it('makes its engine calls per minute whatever runs, and none for a user\'s reads while the watch is fresh', async () => {
    const { api } = real
    const idle = await callsPerMinute(real)
    const ids: string[] = []
    const counts = await real.injecting({ hang: 'test_site/armada_test_releases' }, async () => {
      const measured: Array<Awaited<ReturnType<typeof callsPerMinute>>> = []
      for (let running = 1; running <= 2; running++) {
        const id = await api.create('test_site')
        ids.push(id)
        await api.actionUntil(id, 'to run its hanging step', hanging, 120_000)
        // a user reading every running action twice a second meanwhile: answered from the watch
        measured.push(await callsPerMinute(real, async (until) => {
          while (Date.now() < until - 500) {
            for (const each of ids) expect((await api.action(each)).action_lifecycle).toBe('Processing')
            await new Promise((resolve) => setTimeout(resolve, 500))
          }
        }))
      }
      for (const id of ids) expect((await api.call('POST', `/actions/${id}/control/stop`)).status).toBe(202)
      return measured
    })
    for (const id of ids) await api.actionUntil(id, 'to be stopped', (a) => a.action_lifecycle === 'Failed', 120_000)
    const [one, two] = counts
    recordFigure('engine calls per minute', `idle ${idle.all}, 1 running action ${one!.all}, 2 running ${two!.all}`)
    recordFigure('watch reads per minute (1 running)', `full ${one!.fullReads}, of changes (updated_at_gte) ${one!.changeReads}`)
    // the user's reads cost the engine nothing while the watch is fresh (a poll slowed past the bound lets some through)
    recordFigure('user reads that reached the engine (the watch stale)', String(one!.others.length + two!.others.length))
    expect(whileFresh(real.proxy.calls, [...one!.others, ...two!.others])).toEqual([])
    // a poll reads the DAG list, the runs and their task instances: at most 4 calls a poll, whatever runs
    const bound = 4 * 60_000 / WATCH.intervalMs
    for (const count of [idle.all, one!.all, two!.all]) expect(count).toBeLessThanOrEqual(bound)
  })
}
