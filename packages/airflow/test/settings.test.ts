// The airflow.cfg Slipway writes: what a real Airflow needs to run the site workflows here, and values that Airflow's
// configuration reader would otherwise interpolate written as literals.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { airflowConfig, writeAirflowConfig, type AirflowSettings } from '../src/settings.ts'

const settings = (home: string): AirflowSettings => ({
  home,
  dagsFolder: '/repo/packages/airflow/dags',
  databaseUrl: 'postgresql+psycopg2://slipway:p%40ss@127.0.0.1:5432/airflow',
  host: '127.0.0.1',
  port: 43210,
  username: 'slipway',
  password: 'secret',
  jwtSecret: 'jwt',
  parallelism: 4
})

describe('airflow settings', () => {
  it('run the DAGs unpaused with the local executor, tasks reporting to this API server, the simple auth manager', () => {
    const config = airflowConfig(settings('/home/af'))
    expect(config.core).toMatchObject({
      dags_folder: '/repo/packages/airflow/dags',
      executor: 'LocalExecutor',
      dags_are_paused_at_creation: 'False',
      load_examples: 'False',
      simple_auth_manager_users: 'slipway:admin',
      simple_auth_manager_passwords_file: '/home/af/passwords.json',
      execution_api_server_url: 'http://127.0.0.1:43210/execution/'
    })
    expect(config.api).toMatchObject({ host: '127.0.0.1', port: '43210' })
    expect(config.api_auth?.jwt_secret).toBe('jwt')
  })

  it('writes a % as %% (Airflow interpolates its configuration file) and the password file as JSON', () => {
    const home = mkdtempSync(join(tmpdir(), 'slipway-airflow-settings-'))
    onTestFinished(() => { rmSync(home, { recursive: true, force: true }) })
    const file = writeAirflowConfig(settings(home))
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('sql_alchemy_conn = postgresql+psycopg2://slipway:p%%40ss@127.0.0.1:5432/airflow')
    expect(text).toMatch(/^\[core\]$/m)
    expect(JSON.parse(readFileSync(join(home, 'passwords.json'), 'utf8'))).toEqual({ slipway: 'secret' })
  })
})
