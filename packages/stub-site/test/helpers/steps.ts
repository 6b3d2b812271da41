// A site with three Ready nodes (n1..n3) wired to the fake store and bootstrap service, and a caller of its step
// endpoint with a deploy_site-shaped body that each test changes where it matters.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import { buildTestApp, tempDir } from './site.ts'
import { startFakeTargets, type FakeTargets } from './targets.ts'

export const MARKER = '6b0c7f36-43f2-4d3a-9a56-0d36e6f1f0aa'

export type StepApp = Awaited<ReturnType<typeof buildTestApp>>

export interface StepOptions { body?: Record<string, unknown>, action?: Record<string, unknown>, headers?: Record<string, string> }

export interface StepSite {
  app: StepApp
  targets: FakeTargets
  /** POSTs one step; `body` is merged over the default body, `action` over its conf.action. */
  step: (name: string, options?: StepOptions) => Promise<LightMyRequestResponse>
  /** Each node's provisioning status and power state, as the Drydock list shows them. */
  nodes: () => Promise<Record<string, string>>
}

export function stepBody (targets: Pick<FakeTargets, 'storeUrl'>, action: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
  return {
    dag_id: 'deploy_site',
    task_id: 'drydock_build.prepare_and_deploy_nodes',
    run_id: 'manual__ACT',
    try_number: 1,
    conf: {
      action: { id: 'ACT', name: 'deploy_site', parameters: {}, user: 'operator1', context_marker: MARKER, committed_rev_id: 7, ...action },
      design_ref: `deckhand+${targets.storeUrl}/revisions/7/rendered-documents`
    },
    ...body
  }
}

/** `targets: false` leaves STORE_URL and BOOTSTRAP_URL unset (the steps then skip what needs them). */
export async function stepSite (options: { env?: Record<string, string>, targets?: boolean } = {}): Promise<StepSite> {
  const dir = tempDir()
  const file = join(dir, 'nodes.yaml')
  writeFileSync(file, 'nodes:\n  - hostname: n1\n  - hostname: n2\n  - hostname: n3\n')
  const targets = await startFakeTargets()
  const wired: Record<string, string> = options.targets === false
    ? {}
    : { STORE_URL: targets.storeUrl, BOOTSTRAP_URL: targets.bootstrapUrl }
  const app = await buildTestApp({ SITE_NODES_FILE: file, SERVICE_TOKEN: 'svc-token', ...wired, ...options.env })
  return {
    app,
    targets,
    step: async (name, { body = {}, action = {}, headers = {} } = {}) => await app.inject({
      method: 'POST',
      url: `/_stub/steps/${name}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(stepBody(targets, action, body))
    }),
    async nodes () {
      const token = options.env?.SITE_AUTH_TOKENS?.split(',')[0]
      const headers: Record<string, string> = token === undefined ? {} : { 'x-auth-token': token }
      const list = (await app.inject({ url: '/api/v1.0/nodes', headers })).json() as Array<{ hostname: string, status_name: string, power_state: string }>
      return Object.fromEntries(list.map((n) => [n.hostname, `${n.status_name}/${n.power_state}`]))
    }
  }
}
