// The configuration Slipway runs a real Airflow 3 with, written as the airflow.cfg of a home folder of its own:
// every process of that Airflow reads it (AIRFLOW_HOME, AIRFLOW_CONFIG), and an operator can read what was set.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface AirflowSettings {
  home: string
  dagsFolder: string
  /** SQLAlchemy URL of Airflow's metadata database. */
  databaseUrl: string
  host: string
  port: number
  username: string
  password: string
  jwtSecret: string
  /** How many task processes run at once. */
  parallelism: number
}

/** Each `[section] key = value` of the generated airflow.cfg, in the order written. */
export function airflowConfig (s: AirflowSettings): Record<string, Record<string, string>> {
  return {
    core: {
      dags_folder: s.dagsFolder,
      // one machine, tasks as local processes of the scheduler; SQLite works with it too in Airflow 3
      executor: 'LocalExecutor',
      parallelism: String(s.parallelism),
      load_examples: 'False',
      // the site workflows must run when triggered: a paused DAG keeps every run queued
      dags_are_paused_at_creation: 'False',
      auth_manager: 'airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager',
      simple_auth_manager_users: `${s.username}:admin`,
      simple_auth_manager_passwords_file: join(s.home, 'passwords.json'),
      simple_auth_manager_all_admins: 'False',
      // tasks report to the API server they were scheduled by
      execution_api_server_url: `http://${s.host}:${s.port}/execution/`
    },
    database: { sql_alchemy_conn: s.databaseUrl },
    api: { host: s.host, port: String(s.port), workers: '1', expose_config: 'False' },
    api_auth: { jwt_secret: s.jwtSecret, jwt_issuer: 'slipway-airflow' },
    execution_api: { jwt_expiration_time: '600' },
    // the DAG files change only when Slipway is updated: find new files within seconds, re-read each every 30 s
    dag_processor: { refresh_interval: '5', min_file_process_interval: '30', parsing_processes: '1' },
    scheduler: { scheduler_idle_sleep_time: '0.5', orphaned_tasks_check_interval: '30', standalone_dag_processor: 'True' },
    logging: { base_log_folder: join(s.home, 'logs'), logging_level: 'INFO' },
    webserver: { secret_key: s.jwtSecret }
  }
}

/** Writes airflow.cfg and the simple auth manager's passwords file into the home folder; returns the cfg's path. */
export function writeAirflowConfig (s: AirflowSettings): string {
  const sections = airflowConfig(s)
  const text = Object.entries(sections)
    // Airflow reads the file with interpolation: a literal % (an encoded password in a database URL) is written %%
    .map(([section, values]) => `[${section}]\n${Object.entries(values).map(([k, v]) => `${k} = ${v.replaceAll('%', '%%')}`).join('\n')}\n`)
    .join('\n')
  const file = join(s.home, 'airflow.cfg')
  writeFileSync(file, `# written by Slipway's Airflow starter (packages/airflow/src/settings.ts) on each start\n${text}`, { mode: 0o600 })
  writeFileSync(join(s.home, 'passwords.json'), JSON.stringify({ [s.username]: s.password }), { mode: 0o600 })
  return file
}
