// GET /api/v2/monitor/health and /api/v2/version: open, no token, as in Airflow.
import type { FastifyPluginAsync } from 'fastify'
import type { Engine } from '../domain/engine.ts'
import type { HealthInfoResponse, VersionInfo } from '@slipway/airflow-contract'

export const STUB_VERSION = '3.1.0-stub'

export const monitorRoutes: FastifyPluginAsync<{ engine: Engine }> = async (app, { engine }) => {
  app.get('/api/v2/monitor/health', { config: { access: 'public' } }, async (): Promise<HealthInfoResponse> => {
    const now = new Date().toISOString()
    const status = engine.healthy() ? 'healthy' : 'unhealthy'
    return {
      metadatabase: { status: 'healthy' },
      scheduler: { status, latest_scheduler_heartbeat: now },
      triggerer: { status, latest_triggerer_heartbeat: now },
      dag_processor: { status, latest_dag_processor_heartbeat: now }
    }
  })

  app.get('/api/v2/version', { config: { access: 'public' } }, async (): Promise<VersionInfo> =>
    ({ version: STUB_VERSION, git_version: null }))
}
