// The stack's engine as a real Apache Airflow 3 (SLIPWAY_ENGINE=airflow) instead of stub-engine: Airflow installed
// from its lock, its home in the data folder, Slipway's DAGs, and the tasks pointed at the site stand-in, which does
// the simulated site work of every step for both engines.
import { join } from 'node:path'
import { startAirflow, type Airflow } from '@slipway/airflow'

export type EngineKind = 'stub' | 'airflow'

export interface AirflowEngineOptions {
  dataDir: string
  host: string
  port: number
  /** The orchestrator's engine credentials: the Airflow user is made with them. */
  username: string
  password: string
  jwtSecret: string
  siteUrl: string
  serviceToken: string
  version?: string
  databaseUrl?: string
  output: (line: string) => void
  signal?: AbortSignal
}

/** Where the DAG tasks of the stack's Airflow read failure and hang rules (`{"fail": "[dag/]task[=N],…", "hang": …}`). */
export const airflowInjectFile = (dataDir: string): string => join(dataDir, 'airflow', 'inject.json')

export async function startAirflowEngine (options: AirflowEngineOptions): Promise<Airflow> {
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
      SLIPWAY_SITE_URL: options.siteUrl,
      SLIPWAY_SITE_TOKEN: options.serviceToken,
      SLIPWAY_INJECT_FILE: airflowInjectFile(options.dataDir)
    },
    // Airflow's own chatter (every scheduler loop) stays in its log files under the home folder
    output: (name, line) => { if (name === 'install' || /\b(ERROR|CRITICAL|error)\b/.test(line)) options.output(`${name}: ${line}`) }
  })
}
