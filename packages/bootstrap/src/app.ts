// buildApp(deps): the bootstrap service's routes on common's service app; never listens.
import { acceptAllBodiesAsText, apiIndexRoutes, createServiceApp, healthRoutes, openApiRoutes, versionsRoutes } from '@slipway/common'
import type { Authenticator, Metrics, Policy, ServerTls } from '@slipway/common'
import type { KubernetesClient } from './clients/kubernetes.ts'
import type { JoinScripts } from './domain/join-scripts.ts'
import type { DesignValidation } from './domain/design-validation.ts'
import type { NodeLabels } from './domain/node-label-updates.ts'
import { joinScriptRoutes } from './routes/join-scripts.ts'
import { validateDesignRoutes } from './routes/validate-design.ts'
import { nodeLabelRoutes } from './routes/node-labels.ts'
import { isDesignRef } from './schemas/join-scripts.ts'

export interface AppDeps {
  authenticator: Authenticator
  policy: Policy
  joinScripts: JoinScripts
  designValidation: DesignValidation
  nodeLabels: NodeLabels
  /** Closed when the app closes (its TLS agent). */
  kubernetes: Pick<KubernetesClient, 'close'>
  bodyLimitBytes?: number
  /** Deepest nesting of a JSON body (JSON_MAX_DEPTH); deeper bodies are a 400 before they are parsed. */
  jsonMaxDepth?: number
  logLevel?: string
  logger?: boolean
  /** Prometheus metrics served at GET /metrics; absent: none. */
  metrics?: Metrics | undefined
  /** HTTPS only, with this certificate and key (TLS_CERT_FILE, TLS_KEY_FILE); absent: plain HTTP. */
  https?: ServerTls | undefined
}

export async function buildApp (deps: AppDeps) {
  const app = createServiceApp({
    service: 'bootstrap',
    logLevel: deps.logLevel,
    logger: deps.logger,
    bodyLimitBytes: deps.bodyLimitBytes,
    jsonMaxDepth: deps.jsonMaxDepth,
    authenticator: deps.authenticator,
    policy: deps.policy,
    // Promenade's request-id header beside the seed's x-service-req, its any-value context marker and its
    // X-End-User echo, on every answer, errors included (Promenade's middleware runs after its error handlers)
    requestIdHeaders: ['x-deckhand-req'],
    contextMarkers: 'any',
    echoEndUser: true,
    metrics: deps.metrics,
    https: deps.https,
    formats: { 'design-ref': isDesignRef },
    openapi: {
      title: 'Slipway bootstrap',
      version: '1.0',
      description: 'Health, join scripts, design validation and node labels'
    }
  })
  // bodies are read as text unless a route reads JSON (validatedesign, node-labels)
  acceptAllBodiesAsText(app)
  // the kubeconfig's TLS agent lives as long as the app
  app.addHook('onClose', async () => { await deps.kubernetes.close() })
  await app.register(versionsRoutes)
  await app.register(async (api) => {
    await api.register(healthRoutes)
    await api.register(apiIndexRoutes, { service: 'bootstrap' })
    await api.register(openApiRoutes)
    await api.register(joinScriptRoutes, { joinScripts: deps.joinScripts })
    await api.register(validateDesignRoutes, { designValidation: deps.designValidation })
    await api.register(nodeLabelRoutes, { nodeLabels: deps.nodeLabels })
  }, { prefix: '/api/v1.0' })
  return app
}
