// A long history for the benchmarks: test_site actions created through the orchestrator's API, ten at a time, until
// there are `total`, then every one waited for to finish (the full list read every 5 s). Used by bench/history.ts
// and bench/soak.ts (SOAK_HISTORY).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startStack } from '@slipway/stack'
import { fixed } from './proc.ts'

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

export interface History {
  /** How many actions this history has created. */
  created: number
  /** The newest action id created. */
  lastId: string
}

export function newHistory (): History {
  return { created: 0, lastId: '' }
}

/** Grows `history` to `total` actions through `api` (the orchestrator's /api/v1.0), every one finished. */
export async function growHistory (api: string, token: string, history: History, total: number): Promise<void> {
  const headers = { 'x-auth-token': token }
  const started = performance.now()
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (history.created < total) {
      history.created++
      const res = await fetch(`${api}/actions`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name": "test_site"}'
      })
      const body = await res.json() as { id?: string }
      if (res.status !== 201 || body.id === undefined) throw new Error(`POST /actions answered ${res.status}`)
      if (body.id > history.lastId) history.lastId = body.id
    }
  }))
  for (;;) {
    const list = await (await fetch(`${api}/actions`, { headers })).json() as Array<{ action_lifecycle: string }>
    const open = list.filter((a) => a.action_lifecycle !== 'Complete' && a.action_lifecycle !== 'Failed').length
    if (open === 0 && list.length >= total) break
    await sleep(5000)
  }
  console.log(`  ${total} actions, every one finished, ${fixed((performance.now() - started) / 1000)} s after the first create of this level`)
}

/**
 * The stand-in stack a history bench grows its history in: the engine's tasks take a millisecond, 64 runs at a time,
 * and the orchestrator loads bench/memory-hook.ts (with `nodeOptions` before it) and whatever `env` switches on in it.
 */
export async function startHistoryStack (dataDir: string, nodeOptions: string, env: Record<string, string>) {
  const hook = pathToFileURL(join(import.meta.dirname, 'memory-hook.ts')).href
  return await startStack({
    dataDir,
    ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 },
    output: () => {},
    env: {
      engine: { ENGINE_TASK_MS: '1', ENGINE_MAX_ACTIVE_RUNS: '64' },
      orchestrator: { NODE_OPTIONS: `${nodeOptions}--import=${hook}`, ...env }
    }
  })
}
