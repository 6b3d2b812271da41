// The step runner's HTTP API, for the Airflow DAG files: start a step run, read its state and log from a line on,
// stop it. Long steps are polled, never held on one request. Every route but health takes a runner token.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ApiError, createServiceApp, healthRoutes, NotFoundError, UnauthenticatedError } from '@slipway/common'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { STEP_KINDS } from '../types.ts'
import type { StepRuns } from './runs.ts'

const Name = Type.String({ minLength: 1, maxLength: 250 })
const StartSchema = Type.Object({
  kind: Type.Enum([...STEP_KINDS]),
  dag_id: Name,
  task_id: Name,
  run_id: Name,
  try_number: Type.Integer({ minimum: 1 }),
  conf: Type.Record(Type.String(), Type.Unknown()),
  task_states: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]))),
  xcom: Type.Optional(Type.Record(Type.String(), Type.Unknown()))
}, { additionalProperties: false })
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

const routes: FastifyPluginAsyncTypebox<{ runs: StepRuns }> = async (app, { runs }) => {
  app.post('/step-runs', { schema: { body: StartSchema } }, async (request, reply) => {
    const b = request.body
    const started = runs.start(b.kind, {
      dagId: b.dag_id,
      taskId: b.task_id,
      runId: b.run_id,
      tryNumber: b.try_number,
      conf: b.conf,
      taskStates: b.task_states ?? {},
      xcom: b.xcom ?? {}
    })
    if (started === undefined) {
      const reason = 'The runner holds as many step runs as it may (RUNNER_MAX_RUNS); try again later'
      throw new ApiError(503, 'Too many step runs', reason, { retry: true })
    }
    return await reply.code(201).send(started)
  })

  app.get('/step-runs/:id', {
    schema: { params: IdParams, querystring: Type.Object({ since: Type.Optional(Type.Integer({ minimum: 0 })) }) }
  }, async (request) => {
    const view = runs.read(request.params.id, request.query.since ?? 0)
    if (view === undefined) {
      throw new NotFoundError('Step run not found', `No step run ${request.params.id} (never started, or ended and forgotten)`)
    }
    return view
  })

  app.post('/step-runs/:id/stop', { schema: { params: IdParams } }, async (request, reply) => {
    const state = runs.stop(request.params.id)
    if (state === undefined) throw new NotFoundError('Step run not found', `No step run ${request.params.id}`)
    return await reply.code(202).send({ id: request.params.id, state })
  })
}

export function buildRunnerApp (deps: { runs: StepRuns, authTokens: string[], logger?: boolean, logLevel?: string }) {
  const app = createServiceApp({
    service: 'step-runner', logger: deps.logger, logLevel: deps.logLevel, requestLogLevel: 'debug', bodyLimitBytes: 8 * 1024 * 1024
  })
  const tokens = new Set(deps.authTokens.filter((t) => t !== ''))
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (tokens.size === 0 || request.is404 || request.routeOptions.config.public === true) return
    const token = request.headers['x-auth-token']
    if (typeof token !== 'string' || !tokens.has(token)) {
      throw new UnauthenticatedError({ headers: { 'www-authenticate': 'Token realm="step-runner"' } })
    }
  })
  app.addHook('onClose', async () => { deps.runs.stopAll() })
  app.register(healthRoutes, { prefix: '/api/v1.0' })
  app.register(routes, { prefix: '/api/v1.0', runs: deps.runs })
  return app
}
