// buildApp(deps): the orchestrator's routes on common's service app; never listens.
import { acceptAllBodiesAsText, apiIndexRoutes, createServiceApp, healthRoutes, openApiRoutes, versionsRoutes } from '@slipway/common'
import type { Authenticator, Metrics, Policy, ServerTls } from '@slipway/common'
import type { Workflows } from './domain/workflows.ts'
import type { SiteStatuses } from './domain/site-statuses.ts'
import type { Notes } from './domain/notes.ts'
import { configdocsRoutes, type Configdocs } from './routes/configdocs.ts'
import { actionRoutes, type Actions } from './routes/actions.ts'
import { workflowRoutes } from './routes/workflows.ts'
import { siteStatusRoutes } from './routes/site-statuses.ts'
import { noteRoutes } from './routes/notes.ts'
import { consoleRoutes, type ConsoleSettings } from './routes/console.ts'
import { VerbosityOnlySchema } from './schemas/query.ts'

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
  /** What the console is told (GET /console/settings.json); absent: nothing set. */
  consoleSettings?: ConsoleSettings
  /** Prometheus metrics served at GET /metrics; absent: none. */
  metrics?: Metrics | undefined
  /** HTTPS only, with this certificate and key (TLS_CERT_FILE, TLS_KEY_FILE); absent: plain HTTP. */
  https?: ServerTls | undefined
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
    https: deps.https,
    openapi: {
      title: 'Slipway orchestrator',
      version: '1.0',
      description: 'Site configuration documents, actions, workflows, site statuses, logs and notes'
    }
  })
  // configdocs bodies of any content type are YAML, read as text (Shipyard never checks their content type); the
  // actions routes read JSON
  acceptAllBodiesAsText(app)
  // every resource takes verbosity, and refuses a bad one before anything else of its query: the routes declare it
  const query = VerbosityOnlySchema
  await app.register(versionsRoutes, { query })
  await app.register(consoleRoutes, { query, settings: deps.consoleSettings })
  await app.register(async (api) => {
    await api.register(healthRoutes, { query })
    await api.register(apiIndexRoutes, { service: 'orchestrator', query })
    await api.register(openApiRoutes, { query })
    await api.register(configdocsRoutes, { configdocs: deps.configdocs })
    await api.register(actionRoutes, { actions: deps.actions })
    await api.register(workflowRoutes, { workflows: deps.workflows })
    await api.register(siteStatusRoutes, { siteStatuses: deps.siteStatuses })
    await api.register(noteRoutes, { notes: deps.notes })
  }, { prefix: '/api/v1.0' })
  return app
}
