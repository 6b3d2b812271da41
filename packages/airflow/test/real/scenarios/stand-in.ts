// The same deploy_site on `npm start`'s stand-in stack (stub-engine with its defaults), for the figure beside the
// real Airflow's: a stack of its own, started and stopped inside the test (a few seconds).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { startStack } from '@slipway/stack'
import { orchestratorApi } from '../helpers/api.ts'
import { recordFigure, seconds } from '../helpers/figures.ts'
import { commitExampleSite } from '../helpers/real-stack.ts'

export function standInScenario (): void {
  it('runs the same deploy_site on stub-engine, for comparison', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'slipway-real-stand-in-'))
    const adminToken = 'stand-in-admin-token'
    const ports = { orchestrator: 0, bootstrap: 0, store: 0, engine: 0, site: 0 }
    const stack = await startStack({ dataDir, adminToken, ports, output: () => {} })
    try {
      const api = orchestratorApi(stack.urls.orchestrator, adminToken)
      await commitExampleSite(api)
      const started = Date.now()
      const done = await api.finished(await api.create('deploy_site'), 60_000)
      recordFigure('deploy_site wall time on stub-engine', seconds(Date.now() - started))
      expect(done.action_lifecycle).toBe('Complete')
      expect(done.steps).toHaveLength(17)
    } finally {
      await stack.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
}
