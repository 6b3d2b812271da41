// The stack's engine as a real Apache Airflow 3 (SLIPWAY_ENGINE=airflow) instead of stub-engine: Airflow installed
// from its lock, its home in the data folder, Slipway's DAGs, and their tasks pointed at a step runner that runs
// each step's site work over the peers' own protocols (the same step library stub-engine runs in its process).
import { join } from 'node:path'
import { startAirflow, type Airflow } from '@slipway/airflow'
import { loadRunnerConfig, startRunner, type RunningRunner } from '@slipway/steps'

export type EngineKind = 'stub' | 'airflow'

export interface AirflowEngineOptions {
  dataDir: string
  host: string
  port: number
  /** The orchestrator's engine credentials: the Airflow user is made with them. */
  username: string
  password: string
  jwtSecret: string
  /** Where the steps' peers are (the step runner's environment: DECKHAND_URL, DRYDOCK_URL, …). */
  peers: Record<string, string>
  serviceToken: string
  version?: string
  databaseUrl?: string
  output: (line: string) => void
  signal?: AbortSignal
}

/** Where the DAG tasks of the stack's Airflow read failure and hang rules (`{"fail": "[dag/]task[=N],…", "hang": …}`). */
export const airflowInjectFile = (dataDir: string): string => join(dataDir, 'airflow', 'inject.json')

/**
 * The step runner the DAG tasks call, in this process on a free port of the host, taking the service token. It lives
 * as long as the stack: Airflow's processes may be stopped and started again under it.
 */
export async function startStepRunner (host: string, peers: Record<string, string>, serviceToken: string): Promise<RunningRunner> {
  const config = loadRunnerConfig({ ...peers, HOST: host, PORT: '0', RUNNER_AUTH_TOKENS: serviceToken, LOG_LEVEL: 'warn' })
  return await startRunner(config, { logger: false })
}

export async function startAirflowEngine (options: AirflowEngineOptions & { runnerUrl: string }): Promise<Airflow> {
  options.signal?.throwIfAborted()
  return await startAirflow({
    version: options.version,
    home: join(options.dataDir, 'airflow'),
    databaseUrl: options.databaseUrl === '' ? undefined : options.databaseUrl,
    host: options.host,
    port: options.port,
    username: options.username,
    password: options.password,
    jwtSecret: options.jwtSecret,
    // the injection file: a test makes steps of the runs the orchestrator triggers fail or hang by writing it
    taskEnv: {
      SLIPWAY_STEPS_URL: options.runnerUrl,
      SLIPWAY_STEPS_TOKEN: options.serviceToken,
      SLIPWAY_INJECT_FILE: airflowInjectFile(options.dataDir)
    },
    // Airflow's own chatter (every scheduler loop) stays in its log files under the home folder
    output: (name, line) => { if (name === 'install' || /\b(ERROR|CRITICAL|error)\b/.test(line)) options.output(`${name}: ${line}`) }
  })
}
