// buildApp(deps): the orchestrator's routes on common's service app; never listens.
import { acceptAllBodiesAsText, apiIndexRoutes, createServiceApp, healthRoutes, versionsRoutes } from '@slipway/common'
import type { Authenticator, Metrics, Policy } from '@slipway/common'
import { verbosityOf } from './domain/format.ts'
import type { Configdocs } from './domain/configdocs.ts'
import type { Actions } from './domain/actions.ts'
import type { Workflows } from './domain/workflows.ts'
import type { SiteStatuses } from './domain/site-statuses.ts'
import type { Notes } from './domain/notes.ts'
import { configdocsRoutes } from './routes/configdocs.ts'
import { actionRoutes } from './routes/actions.ts'
import { workflowRoutes } from './routes/workflows.ts'

export interface AppDeps {
  authenticator: Authenticator
  policy: Policy
  configdocs: Configdocs
  actions: Actions
  workflows: Workflows
  siteStatuses: SiteStatuses
  notes: Notes
  bodyLimitBytes?: number
  logLevel?: string
  logger?: boolean
  /** Prometheus metrics served at GET /metrics; absent: none. */
  metrics?: Metrics | undefined
}

export async function buildApp (deps: AppDeps) {
  const app = createServiceApp({
    service: 'orchestrator',
    logLevel: deps.logLevel,
    logger: deps.logger,
    bodyLimitBytes: deps.bodyLimitBytes,
    authenticator: deps.authenticator,
    policy: deps.policy,
    metrics: deps.metrics
  })
  // bodies reach the routes as text: each answers malformed input with its own documented message
  // (spec §1.3: configdocs bodies of any content type are YAML; an actions body that is not JSON is no body)
  acceptAllBodiesAsText(app)
  // spec/orchestrator.md §1.6: every resource accepts verbosity, and rejects a bad one
  app.addHook('preHandler', async (request) => {
    const value = (request.query as Record<string, unknown> | undefined)?.verbosity
    if (value !== undefined) verbosityOf(Array.isArray(value) ? String(value.at(-1)) : String(value))
  })
  await app.register(versionsRoutes)
  await app.register(async (api) => {
    await api.register(healthRoutes)
    await api.register(apiIndexRoutes, { service: 'orchestrator' })
    await api.register(configdocsRoutes, { configdocs: deps.configdocs })
    await api.register(actionRoutes, { actions: deps.actions })
    await api.register(workflowRoutes, { workflows: deps.workflows, siteStatuses: deps.siteStatuses, notes: deps.notes })
  }, { prefix: '/api/v1.0' })
  return app
}
