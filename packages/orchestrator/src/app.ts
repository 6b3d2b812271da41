// buildApp(deps): the orchestrator's routes on common's service app; never listens.
import { Type } from 'typebox'
import { VerbositySchema, acceptAllBodiesAsText, apiIndexRoutes, createServiceApp, healthRoutes, openApiRoutes, versionsRoutes } from '@slipway/common'
import type { Authenticator, Metrics, Policy } from '@slipway/common'
import type { Configdocs } from './domain/configdocs.ts'
import type { Actions } from './domain/actions.ts'
import type { Workflows } from './domain/workflows.ts'
import type { SiteStatuses } from './domain/site-statuses.ts'
import type { Notes } from './domain/notes.ts'
import { configdocsRoutes } from './routes/configdocs.ts'
import { actionRoutes } from './routes/actions.ts'
import { workflowRoutes } from './routes/workflows.ts'
import { consoleRoutes } from './routes/console.ts'

export interface AppDeps {
  authenticator: Authenticator
  policy: Policy
  configdocs: Configdocs
  actions: Actions
  workflows: Workflows
  siteStatuses: SiteStatuses
  notes: Notes
  bodyLimitBytes?: number
  /** Deepest nesting of a JSON body (JSON_MAX_DEPTH); deeper bodies are a 400 before they are parsed. */
  jsonMaxDepth?: number
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
    jsonMaxDepth: deps.jsonMaxDepth,
    authenticator: deps.authenticator,
    policy: deps.policy,
    metrics: deps.metrics,
    openapi: { title: 'Slipway orchestrator', version: '1.0', description: 'Site configuration documents, actions, workflows, site statuses, logs and notes (seed 000)' }
  })
  // spec §1.3: configdocs bodies of any content type are YAML, read as text; the actions routes read JSON
  acceptAllBodiesAsText(app)
  // spec/orchestrator.md §1.6: every resource accepts verbosity, and rejects a bad one, first among its query
  app.addHook('onRoute', (route) => {
    const query = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined
    if (query?.properties?.verbosity !== undefined) return
    const verbosity = { verbosity: Type.Optional(VerbositySchema) }
    route.schema = {
      ...route.schema,
      querystring: query === undefined ? Type.Object(verbosity) : { ...query, properties: { ...verbosity, ...query.properties } }
    }
  })
  await app.register(versionsRoutes)
  await app.register(consoleRoutes)
  await app.register(async (api) => {
    await api.register(healthRoutes)
    await api.register(apiIndexRoutes, { service: 'orchestrator' })
    await api.register(openApiRoutes)
    await api.register(configdocsRoutes, { configdocs: deps.configdocs })
    await api.register(actionRoutes, { actions: deps.actions })
    await api.register(workflowRoutes, { workflows: deps.workflows, siteStatuses: deps.siteStatuses, notes: deps.notes })
  }, { prefix: '/api/v1.0' })
  return app
}
