// buildApp(deps): the stand-in's Fastify instance (Drydock nodes and tasks, Kubernetes nodes, control and step routes); never listens.
import { UnauthenticatedError, ApiError, createServiceApp, healthRoutes } from '@slipway/common'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Site } from './domain/site.ts'
import type { Faults } from './domain/faults.ts'
import type { Pods } from './domain/pods.ts'
import type { ConfigMaps } from './domain/configmaps.ts'
import { drydockRoutes } from './routes/drydock.ts'
import { kubernetesRoutes } from './routes/kubernetes.ts'
import { controlRoutes } from './routes/control.ts'
import { drydockTaskRoutes } from './routes/drydock-tasks.ts'
import type { DesignFetcher } from './clients/design.ts'
import type { DrydockTasks } from './domain/drydock/tasks.ts'
import type { TaskFaults } from './domain/drydock/task-faults.ts'
import { armadaControlRoutes, armadaRoutes } from './routes/armada.ts'
import type { Armada } from './domain/armada/armada.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route plays the fault chosen with SITE_FAULT or PUT /_stub/fault. */
    faultable?: boolean
  }
}

export interface AppDeps {
  site: Site
  /** The site's pods and ConfigMaps, served on the Kubernetes API. */
  kube: { pods: Pods, configMaps: ConfigMaps }
  faults: Faults
  /** The Armada stand-in (its releases, its own fault settings). */
  armada: Armada
  /** Drydock's tasks, the design reader of its task API, and the stand-in's task faults. */
  drydock: { tasks: DrydockTasks, fetchDesign: DesignFetcher, taskFaults: TaskFaults }
  /** Accepted tokens; empty: any caller, with or without a token. */
  authTokens: string[]
  logger?: boolean
  logLevel?: string
}

function tokenOf (request: FastifyRequest): string | undefined {
  const header = request.headers['x-auth-token']
  if (typeof header === 'string' && header !== '') return header
  const authorization = request.headers.authorization
  const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null
  return match?.[1]
}

export function buildApp (deps: AppDeps) {
  // a stand-in logs its requests at debug: called by the engine's steps, it would fill the log at info
  const app = createServiceApp({ service: 'stub-site', logger: deps.logger, logLevel: deps.logLevel, requestLogLevel: 'debug' })
  const tokens = new Set(deps.authTokens.filter((t) => t !== ''))
  const hanging = new Set<() => void>()

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.faultable !== true) return
    const fault = deps.faults.get()
    if (fault.mode === 'error') {
      const status = fault.status ?? 500
      throw new ApiError(status, 'Injected fault', `stub-site is told to fail (fault mode error, status ${status})`, { retry: true })
    }
    if (fault.mode === 'hang') {
      // never answer: the caller's timeout is what is under test; the socket goes when the caller gives up or we close
      reply.hijack()
      const socket = request.raw.socket
      await new Promise<void>((resolve) => {
        const release = (): void => {
          hanging.delete(release)
          socket.destroy()
          resolve()
        }
        hanging.add(release)
        socket.once('close', release)
      })
    }
  })

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (tokens.size === 0 || request.is404 || request.routeOptions.config.public === true) return
    const token = tokenOf(request)
    if (token === undefined || !tokens.has(token)) {
      throw new UnauthenticatedError({ headers: { 'www-authenticate': 'Bearer realm="stub-site"' } })
    }
  })

  app.addHook('preClose', async () => {
    for (const release of [...hanging]) release()
  })
  app.addHook('onClose', async () => {
    deps.kube.pods.close()
    deps.drydock.tasks.close()
  })

  app.get('/healthz', { config: { public: true } }, async () => 'ok')
  app.register(healthRoutes, { prefix: '/api/v1.0' })
  app.register(drydockRoutes, { prefix: '/api/v1.0', site: deps.site })
  app.register(drydockTaskRoutes, { prefix: '/api/v1.0', tasks: deps.drydock.tasks, fetchDesign: deps.drydock.fetchDesign })
  app.register(kubernetesRoutes, { prefix: '/api/v1', site: deps.site, ...deps.kube })
  app.register(controlRoutes, {
    prefix: '/_stub', site: deps.site, faults: deps.faults, pods: deps.kube.pods, taskFaults: deps.drydock.taskFaults
  })
  app.register(armadaRoutes, { prefix: '/armada/api/v1.0', armada: deps.armada })
  app.register(armadaControlRoutes, { prefix: '/_stub/armada', armada: deps.armada })
  return app
}

export type SiteApp = ReturnType<typeof buildApp>
