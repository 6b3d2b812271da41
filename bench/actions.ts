// Benchmark of the actions API over a fake Airflow that counts its calls (bench/fixtures.ts), each figure with and
// without the engine watch:
// - GET /actions with ACTIONS actions (default 1,000; ACTIONS=10000 for the large case): median, p95, engine calls;
// - GET /actions/{id} requests per second against a bare Fastify route returning the same JSON, as a ratio;
// - engine calls per second while 10 and 50 clients poll GET /actions/{id} of a running action.
// Run: node bench/actions.ts
import autocannon from 'autocannon'
import { AUTH } from '@slipway/common/testing'
import { startBare, startFakeAirflow, startOrchestrator, type FakeAirflow } from './fixtures.ts'

const ACTIONS = Number(process.env.ACTIONS ?? 1000)
const WATCH = { intervalMs: 1000, staleMs: 5000 }

async function listLatency (airflow: FakeAirflow, base: string): Promise<string> {
  await fetch(`${base}/api/v1.0/actions`, { headers: AUTH }) // warm-up (token, JIT)
  const latencies: number[] = []
  const callsBefore = airflow.calls()
  const requests = ACTIONS >= 10_000 ? 10 : 30
  for (let i = 0; i < requests; i++) {
    const started = performance.now()
    const body = await (await fetch(`${base}/api/v1.0/actions`, { headers: AUTH })).json() as unknown[]
    latencies.push(performance.now() - started)
    if (body.length !== ACTIONS) throw new Error(`expected ${ACTIONS} actions, got ${body.length}`)
  }
  latencies.sort((a, b) => a - b)
  const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0
  return `median ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms, ${((airflow.calls() - callsBefore) / requests).toFixed(1)} engine calls per request`
}

const cannon = async (url: string, headers: Record<string, string>, connections: number, duration = 4) =>
  await autocannon({ url, headers, connections, duration })

async function detailRatio (base: string, id: string): Promise<{ text: string, errors: number }> {
  const one = await (await fetch(`${base}/api/v1.0/actions/${id}`, { headers: AUTH })).text()
  const bare = await startBare(one)
  const ours = await cannon(`${base}/api/v1.0/actions/${id}`, AUTH, 10)
  const reference = await cannon(bare.url, {}, 10)
  await bare.close()
  return {
    text: `${ours.requests.average.toFixed(0)} req/s (p99 ${ours.latency.p99} ms) against ${reference.requests.average.toFixed(0)} for a bare route, ratio ${(ours.requests.average / reference.requests.average).toFixed(3)}`,
    errors: ours.errors + ours.non2xx + reference.errors + reference.non2xx
  }
}

async function pollLoad (airflow: FakeAirflow, base: string, id: string): Promise<string> {
  const parts: string[] = []
  for (const clients of [10, 50]) {
    const before = airflow.calls()
    const started = performance.now()
    const result = await cannon(`${base}/api/v1.0/actions/${id}`, AUTH, clients, 3)
    const seconds = (performance.now() - started) / 1000
    parts.push(`${clients} clients: ${((airflow.calls() - before) / seconds).toFixed(0)} engine calls/s (${result.requests.average.toFixed(0)} req/s)`)
  }
  return parts.join('; ')
}

const airflow = await startFakeAirflow(ACTIONS, 1)
const running = airflow.ids[0] ?? ''
let errors = 0
for (const watch of [undefined, WATCH]) {
  const label = watch === undefined ? 'engine direct' : `engine watch (${watch.intervalMs} ms polls)`
  const orchestrator = await startOrchestrator(airflow, watch)
  console.log(`[${label}] GET /actions with ${ACTIONS} actions (${airflow.stepsPerRun} task instances each): ${await listLatency(airflow, orchestrator.url)}`)
  const detail = await detailRatio(orchestrator.url, running)
  errors += detail.errors
  console.log(`[${label}] GET /actions/{id}: ${detail.text}`)
  console.log(`[${label}] polling a running action: ${await pollLoad(airflow, orchestrator.url, running)}`)
  await orchestrator.close()
}
console.log(`errors: ${errors}`)
await airflow.close()
