// The step runner's environment: where it listens, who may call it, how long it keeps ended runs, and the peers
// (the same variables as stub-engine's).
import { LogLevelSchema, readConfig } from '@slipway/common'
import { Type, type Static } from 'typebox'
import { PeersConfigSchema } from '../config.ts'

export const RunnerConfigSchema = Type.Object({
  ...PeersConfigSchema.properties,
  HOST: Type.String({ default: '127.0.0.1', description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 9400, minimum: 0, maximum: 65535, description: 'Port to listen on (0: any free port)' }),
  LOG_LEVEL: LogLevelSchema(),
  RUNNER_AUTH_TOKENS: Type.String({
    default: '',
    description: 'Comma-separated tokens accepted as X-Auth-Token from the DAG tasks; empty: no token required'
  }),
  RUNNER_KEEP_S: Type.Integer({ default: 600, minimum: 1, description: 'How long an ended step run stays readable, in seconds' }),
  RUNNER_MAX_RUNS: Type.Integer({
    default: 1000,
    minimum: 1,
    description: 'Most step runs held at once (running and ended); a start past it is a 503'
  })
})
export type RunnerConfig = Static<typeof RunnerConfigSchema>

export const loadRunnerConfig = (env: Record<string, string | undefined> = process.env): RunnerConfig => readConfig(RunnerConfigSchema, env)
