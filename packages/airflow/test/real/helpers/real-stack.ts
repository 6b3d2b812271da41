// One whole Slipway stack on the real Airflow for one test file: started in beforeAll (store, site, bootstrap,
// orchestrator, and Airflow in place of stub-engine, all on 127.0.0.1 free ports in a throw-away data folder, Airflow
// on a database of its own: airflow-database.ts), stopped and removed in afterAll. The orchestrator reaches Airflow
// through a counting proxy, so that tests can count its engine calls. Tests drive the orchestrator's API; the site's
// nodes and the store's tags are read from the stand-ins to check what the workflows did.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve as resolvePath } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { fetchToken, type Airflow } from '@slipway/airflow'
import { freePort } from '@slipway/common/ports'
import { airflowInjectFile, startStack, type Stack } from '@slipway/stack'
import { airflowDatabase, type AirflowDatabase } from './airflow-database.ts'
import { AIRFLOW_VERSION, UNAVAILABLE } from './airflow-install.ts'
import { orchestratorApi, type Api } from './api.ts'
import { startEngineProxy, type EngineProxy } from './engine-proxy.ts'

const SITE = resolvePath(import.meta.dirname, '../../../../../examples/site')
const HOST = '127.0.0.1'
/** The orchestrator's engine watch as `npm start` configures it (its defaults), written out for the tests. */
export const WATCH = { intervalMs: 1000, staleMs: 5000 }

export interface SiteNode { hostname: string, status: string, power: string, resourceVersion: string, labels: Record<string, string> }

export interface Injection { fail?: string, hang?: string }

export interface RealStack {
  readonly api: Api
  readonly stack: Stack
  readonly airflow: Airflow
  readonly proxy: EngineProxy
  /** Milliseconds the whole stack took to start. */
  readonly startMs: number
  /** The last lines the processes wrote (Airflow's own only when they name an error). */
  tail: (lines?: number) => string
  /**
   * Makes steps of the runs the orchestrator triggers fail or hang while `body` runs (the stack's injection file,
   * which each try reads when it starts): `[dag_id/]task[=N]` comma-separated, as stub-engine's ENGINE_FAIL_TASKS
   * and ENGINE_HANG_TASKS; without `=N` every try fails. Cleared when `body` ends, however it ends.
   */
  injecting: <T>(rules: Injection, body: () => Promise<T>) => Promise<T>
  /** Stages examples/site (global and site) and commits it. */
  commitSite: () => Promise<void>
  /** The site stand-in's nodes: Drydock status and power, Kubernetes labels and resourceVersion. */
  nodes: () => Promise<Map<string, SiteNode>>
  /** The tag names of a store revision. */
  tags: (revision: number) => Promise<string[]>
  /** A GET of Airflow's own API with a fresh token (to check what the engine says, never to drive a scenario). */
  airflowGet: <T>(path: string) => Promise<T>
  /**
   * Sets a fault of the site stand-in's own (`PUT /_stub/<path>`: task-faults, armada/faults, evictions) while `body`
   * runs, and `after` when it ends, however it ends.
   */
  siteFault: <T>(path: string, during: unknown, after: unknown, body: () => Promise<T>) => Promise<T>
  /** A merge patch of a node in the site stand-in's Kubernetes API (a label the design does not give it). */
  patchNode: (name: string, patch: unknown) => Promise<void>
}

/** Stages examples/site (global, then site appended) and commits it. */
export async function commitExampleSite (api: Api): Promise<void> {
  const yaml = (name: string) => ({ body: readFileSync(join(SITE, `${name}.yaml`), 'utf8'), type: 'application/x-yaml' })
  const global = await api.call('POST', '/configdocs/global', yaml('global'))
  expect(global.status, global.text).toBe(201)
  const site = await api.call('POST', '/configdocs/site?buffermode=append', yaml('site'))
  expect(site.status, site.text).toBe(201)
  const commit = await api.call('POST', '/commitconfigdocs')
  expect(commit.status, commit.text).toBe(200)
}

/** The stack for this file (nothing starts when the real Airflow is unavailable: the suites are skipped). */
export function realStack (name: string, adminToken = `${name}-admin-token`): RealStack {
  const lines: string[] = []
  let stack: Stack | undefined
  let proxy: EngineProxy | undefined
  let dataDir = ''
  let database: AirflowDatabase | undefined
  let startMs = 0
  let api: Api | undefined
  let jwt: string | undefined

  beforeAll(async () => {
    if (UNAVAILABLE !== undefined) return
    dataDir = mkdtempSync(join(tmpdir(), `slipway-real-${name}-`))
    const enginePort = await freePort(HOST)
    proxy = await startEngineProxy({ host: HOST, port: enginePort })
    database = await airflowDatabase()
    const started = Date.now()
    stack = await startStack({
      dataDir,
      adminToken,
      engine: 'airflow',
      airflowVersion: AIRFLOW_VERSION,
      airflowDatabaseUrl: database.url,
      ports: { orchestrator: 0, bootstrap: 0, store: 0, engine: enginePort, site: 0 },
      env: {
        orchestrator: {
          ENGINE_URL: proxy.url,
          ENGINE_WATCH_INTERVAL_MS: String(WATCH.intervalMs),
          ENGINE_WATCH_STALE_MS: String(WATCH.staleMs),
          TAG_POLL_INTERVAL_MS: '500'
        }
      },
      output: (process, line) => {
        lines.push(`${process} | ${line}`)
        if (lines.length > 2000) lines.splice(0, 1000)
      }
    })
    startMs = Date.now() - started
    api = orchestratorApi(stack.urls.orchestrator, adminToken)
  })

  afterAll(async () => {
    await stack?.close()
    await database?.drop()
    await proxy?.close()
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true })
  })

  const running = (): Stack => {
    if (stack === undefined) throw new Error('the stack has not started')
    return stack
  }
  const started = (): Api => {
    if (api === undefined) throw new Error('the stack has not started')
    return api
  }

  async function siteGet<T> (path: string): Promise<T> {
    const response = await fetch(`${running().urls.site}${path}`, { headers: { 'x-auth-token': running().serviceToken } })
    expect(response.status, `site ${path}`).toBe(200)
    return await response.json() as T
  }

  return {
    get api () { return started() },
    get stack () { return running() },
    get airflow () {
      const airflow = running().airflow
      if (airflow === undefined) throw new Error('the stack runs no real Airflow')
      return airflow
    },
    get proxy () {
      if (proxy === undefined) throw new Error('the engine proxy has not started')
      return proxy
    },
    get startMs () { return startMs },
    tail: (count = 40) => lines.slice(-count).join('\n'),
    async injecting (rules, body) {
      const file = airflowInjectFile(dataDir)
      writeFileSync(file, JSON.stringify(rules))
      try {
        return await body()
      } finally {
        writeFileSync(file, '{}')
      }
    },
    commitSite: async () => { await commitExampleSite(started()) },
    async siteFault (path, during, after, body) {
      const put = async (value: unknown): Promise<void> => {
        const response = await fetch(`${running().urls.site}/_stub/${path}`, {
          method: 'PUT',
          headers: { 'x-auth-token': running().serviceToken, 'content-type': 'application/json' },
          body: JSON.stringify(value)
        })
        expect(response.status, `PUT /_stub/${path}: ${await response.text()}`).toBe(200)
      }
      await put(during)
      try {
        return await body()
      } finally {
        await put(after)
      }
    },
    async patchNode (name, patch) {
      const response = await fetch(`${running().urls.site}/api/v1/nodes/${name}`, {
        method: 'PATCH',
        headers: { 'x-auth-token': running().serviceToken, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify(patch)
      })
      expect(response.status, `PATCH node ${name}`).toBe(200)
    },
    async nodes () {
      const drydock = await siteGet<Array<{ hostname: string, status_name: string, power_state: string }>>('/api/v1.0/nodes')
      const kube = await siteGet<{ items: Array<{ metadata: { name: string, resourceVersion: string, labels?: Record<string, string> } }> }>('/api/v1/nodes')
      const meta = new Map(kube.items.map((n) => [n.metadata.name, n.metadata]))
      return new Map(drydock.map((n) => [n.hostname, {
        hostname: n.hostname,
        status: n.status_name,
        power: n.power_state,
        resourceVersion: meta.get(n.hostname)?.resourceVersion ?? '',
        labels: meta.get(n.hostname)?.labels ?? {}
      }]))
    },
    async tags (revision) {
      const response = await fetch(`${running().urls.store}/api/v1.0/revisions/${revision}/tags`, { headers: { 'x-auth-token': running().serviceToken } })
      const text = await response.text()
      expect(response.status, `store tags of revision ${revision}: ${text}`).toBe(200)
      return Object.keys(parseYaml(text) as Record<string, unknown> ?? {}).sort()
    },
    async airflowGet<T> (path: string) {
      const airflow = running().airflow!
      const get = async (): Promise<Response> => {
        jwt ??= await fetchToken(airflow.url, airflow.username, airflow.password)
        return await fetch(`${airflow.url}${path}`, { headers: { authorization: `Bearer ${jwt ?? ''}` }, signal: AbortSignal.timeout(30_000) })
      }
      let response = await get()
      // a token of an Airflow since restarted (with another secret): a new one
      if (response.status === 401 || response.status === 403) { jwt = undefined; response = await get() }
      const text = await response.text()
      expect(response.status, `Airflow GET ${path}: ${text.slice(0, 300)}`).toBe(200)
      return JSON.parse(text) as T
    }
  }
}
