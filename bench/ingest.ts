// Benchmark of staging and committing through the orchestrator's API: the synthetic site of bench/render.ts (2,000 and
// 20,000 documents) POSTed to /configdocs/{c} and committed, on a real stub-store; each figure end to end as a client
// sees it (the store's PUT, its validations, the rendering and Shipyard's checks at commit). A second round on a fresh
// store shows the figures once the processes are warm. Run: node bench/ingest.ts [sizes...]
import { request } from 'undici'
import { AUTH, testAuthenticator } from '@slipway/common/testing'
import { loadConfig, startStore } from '@slipway/stub-store'
import { buildApp, createDeps, loadConfig as orchestratorConfig } from '@slipway/orchestrator'
import { syntheticSite } from './render.ts'

async function round (n: number, yaml: string): Promise<{ stage: number, commit: number }> {
  const store = await startStore(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', STORE_BODY_LIMIT_BYTES: String(64 * 1024 * 1024) }))
  // no validators; the engine and provisioner are never called: a closed port
  const deps = await createDeps(orchestratorConfig({
    ORCHESTRATOR_DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    METRICS_ENABLED: 'false',
    ENGINE_WATCH_INTERVAL_MS: '0',
    BODY_LIMIT_BYTES: String(64 * 1024 * 1024),
    EXPANDED_BODY_LIMIT_BYTES: String(256 * 1024 * 1024),
    STORE_URL: store.url,
    STORE_TIMEOUT_MS: '120000',
    VALIDATORS: '',
    COMMIT_LOCK_LEASE_S: '600',
    ENGINE_URL: 'http://127.0.0.1:1',
    PROVISIONER_URL: 'http://127.0.0.1:1'
  }), { authenticator: testAuthenticator() })
  const app = await buildApp({ ...deps, logger: false })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/api/v1.0`
  try {
    let started = performance.now()
    const staged = await request(`${base}/configdocs/site`, {
      method: 'POST', headers: { ...AUTH, 'content-type': 'application/x-yaml' }, body: yaml
    })
    const stagedText = await staged.body.text()
    const stage = performance.now() - started
    if (staged.statusCode !== 201) throw new Error(`staging ${n} documents answered ${staged.statusCode}: ${stagedText.slice(0, 300)}`)
    started = performance.now()
    // forced: the synthetic site has no Shipyard deployment documents, so its checks report them missing; every step
    // of the validation still runs
    const committed = await request(`${base}/commitconfigdocs?force=true`, { method: 'POST', headers: AUTH })
    const committedText = await committed.body.text()
    const commit = performance.now() - started
    if (committed.statusCode !== 200) {
      throw new Error(`committing ${n} documents answered ${committed.statusCode}: ${committedText.slice(0, 300)}`)
    }
    return { stage, commit }
  } finally {
    await app.close()
    await deps.repos.close()
    await store.close()
  }
}

const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0)
for (const n of sizes.length > 0 ? sizes : [2000, 20000]) {
  const site = syntheticSite(n)
  const cold = await round(n, site.yaml)
  const warm = await round(n, site.yaml)
  console.log(`${n} documents (${(site.yaml.length / 1048576).toFixed(1)} MiB): POST /configdocs ${cold.stage.toFixed(0)} ms cold, ${warm.stage.toFixed(0)} ms warm; commit ${cold.commit.toFixed(0)} ms cold, ${warm.commit.toFixed(0)} ms warm`)
}
