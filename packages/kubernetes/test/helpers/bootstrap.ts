// The bootstrap service as its users run it: configuration from environment-style settings (a static token file
// for its own callers; KUBECONFIG, or KUBE_API_URL and KUBE_TOKEN, for the cluster), built with createDeps and
// buildApp, or started as its own process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildApp, createDeps, loadConfig } from '@slipway/bootstrap'
import { startGroup, stopGroup, waitForLine } from '@slipway/common/process-group'

/** The token the tests call the bootstrap service with (role admin in its token file). */
export const CALLER_TOKEN = 'kube-real-caller-token'
/** A caller the service knows whose role its policy does not let label nodes. */
export const READER_TOKEN = 'kube-real-reader-token'

function tokensFile (): { path: string, remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-kube-tokens-'))
  const path = join(dir, 'tokens.yaml')
  writeFileSync(path, [
    'tokens:',
    `  ${CALLER_TOKEN}: { user: operator, project: service, roles: [admin] }`,
    `  ${READER_TOKEN}: { user: watcher, project: service, roles: [reader] }`,
    ''
  ].join('\n'))
  return { path, remove: () => { rmSync(dir, { recursive: true, force: true }) } }
}

export type BootstrapApp = Awaited<ReturnType<typeof buildApp>>

/** The service built in-process from `settings` (KUBECONFIG, KUBE_API_URL, KUBE_TOKEN, …). */
export interface BootstrapService { app: BootstrapApp, deps: ReturnType<typeof createDeps>, close: () => Promise<void> }

export async function bootstrapApp (settings: Record<string, string>): Promise<BootstrapService> {
  const tokens = tokensFile()
  const config = loadConfig({ AUTH_TOKENS_FILE: tokens.path, METRICS_ENABLED: 'false', KUBE_TIMEOUT_MS: '5000', ...settings })
  const deps = createDeps(config)
  const app = await buildApp({ ...deps, logger: false })
  return {
    app,
    deps,
    close: async () => { await app.close(); deps.authenticator.close?.(); tokens.remove() }
  }
}

export interface LabelAnswer { status: number, body: Record<string, unknown> }

/** PUT the labels as the caller with `token` (null: no token at all). */
export async function putLabels (
  app: BootstrapApp, node: string, labels: unknown, token: string | null = CALLER_TOKEN
): Promise<LabelAnswer> {
  const res = await app.inject({
    method: 'PUT',
    url: `/api/v1.0/node-labels/${encodeURIComponent(node)}`,
    headers: { ...(token === null ? {} : { 'x-auth-token': token }), 'content-type': 'application/json' },
    payload: JSON.stringify(labels)
  })
  return { status: res.statusCode, body: res.json() }
}

const SERVER = resolve(import.meta.dirname, '../../../bootstrap/src/server.ts')

/** The service as its own process (`node packages/bootstrap/src/server.ts`) on a free port, with `env` added. */
export async function bootstrapProcess (env: Record<string, string>): Promise<{ url: string, close: () => Promise<void> }> {
  const tokens = tokensFile()
  const child = startGroup(process.execPath, [SERVER], {
    name: 'bootstrap',
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', METRICS_ENABLED: 'false', AUTH_TOKENS_FILE: tokens.path, ...env }
  })
  try {
    const match = await waitForLine(child, /listening at (http:\/\/127\.0\.0\.1:\d+)/, 60_000)
    return { url: `${match[1] ?? ''}/api/v1.0`, close: async () => { await stopGroup(child); tokens.remove() } }
  } catch (error) {
    await stopGroup(child)
    tokens.remove()
    throw error
  }
}
