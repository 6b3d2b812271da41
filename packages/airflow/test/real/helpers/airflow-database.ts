// The metadata database of every Airflow the real-Airflow suites start, chosen here once for all of them.
// AIRFLOW_TEST_DATABASE=postgres: a fresh PostgreSQL database on TEST_DATABASE_URL's server for each Airflow
// started (made before it starts, dropped once it has stopped; the URL's role must be allowed to create
// databases); AIRFLOW_TEST_DATABASE=sqlite: SQLite in that Airflow's home folder. Unset, PostgreSQL when
// TEST_DATABASE_URL is set and SQLite otherwise. PostgreSQL asked for without TEST_DATABASE_URL fails the suites:
// they never fall back to SQLite unasked.
import pg from 'pg'
import { newUlid } from '@slipway/common'

export type AirflowDatabaseKind = 'postgres' | 'sqlite'

/** Which database the suites give Airflow, from AIRFLOW_TEST_DATABASE and TEST_DATABASE_URL. */
export function chooseAirflowDatabase (env: NodeJS.ProcessEnv): AirflowDatabaseKind {
  const asked = env.AIRFLOW_TEST_DATABASE ?? ''
  if (asked === 'postgres' || asked === 'sqlite') return asked
  if (asked !== '') throw new Error(`AIRFLOW_TEST_DATABASE is postgres or sqlite, not ${JSON.stringify(asked)}`)
  return (env.TEST_DATABASE_URL ?? '') === '' ? 'sqlite' : 'postgres'
}

export const AIRFLOW_DATABASE = chooseAirflowDatabase(process.env)
/** The database as the suites' names and lines say it. */
export const AIRFLOW_DATABASE_NAME = AIRFLOW_DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite'

/** The name of a fresh database on the server of `serverUrl`: its own database's name, `_af_` and a new ULID. */
export function freshDatabaseName (serverUrl: string): string {
  const base = decodeURIComponent(new URL(serverUrl).pathname.slice(1)).toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 30)
  // PostgreSQL names are at most 63 bytes: 30 + 4 + 26
  return `${base === '' ? 'slipway' : base}_af_${newUlid().toLowerCase()}`
}

export interface AirflowDatabase {
  /** The metadata database's URL to hand to the starter; undefined for SQLite in Airflow's home. */
  url: string | undefined
  /** Drops the database made for this Airflow (after it has stopped); nothing on SQLite. */
  drop: () => Promise<void>
}

async function onServer (serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** The database of one Airflow about to start, as AIRFLOW_DATABASE says. */
export async function airflowDatabase (env: NodeJS.ProcessEnv = process.env): Promise<AirflowDatabase> {
  if (chooseAirflowDatabase(env) === 'sqlite') return { url: undefined, drop: async () => {} }
  const server = env.TEST_DATABASE_URL ?? ''
  if (server === '') throw new Error('AIRFLOW_TEST_DATABASE=postgres asks for PostgreSQL, and TEST_DATABASE_URL (its server) is not set')
  const name = freshDatabaseName(server)
  await onServer(server, `CREATE DATABASE "${name}"`)
  const url = new URL(server)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    // FORCE: a connection Airflow left behind (a process killed by a test) must not keep the database
    drop: async () => { await onServer(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
  }
}
