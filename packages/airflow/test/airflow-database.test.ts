// The real-Airflow suites' choice of Airflow's database (test/real/helpers/airflow-database.ts): the variable, its
// default, the fresh database's name, and a PostgreSQL asked for without a server refused before anything starts.
import { describe, expect, it } from 'vitest'
import { airflowDatabase, chooseAirflowDatabase, freshDatabaseName } from './real/helpers/airflow-database.ts'

const SERVER = 'postgres://slipway:slipway@127.0.0.1:5432/slipway_ci_4242'

describe('the real-Airflow suites\' database', () => {
  it('is the one AIRFLOW_TEST_DATABASE names, whether TEST_DATABASE_URL is set or not', () => {
    expect(chooseAirflowDatabase({ AIRFLOW_TEST_DATABASE: 'sqlite', TEST_DATABASE_URL: SERVER })).toBe('sqlite')
    expect(chooseAirflowDatabase({ AIRFLOW_TEST_DATABASE: 'postgres' })).toBe('postgres')
  })

  it('is PostgreSQL when only TEST_DATABASE_URL is set, SQLite when neither is', () => {
    expect(chooseAirflowDatabase({ TEST_DATABASE_URL: SERVER })).toBe('postgres')
    expect(chooseAirflowDatabase({})).toBe('sqlite')
    expect(chooseAirflowDatabase({ AIRFLOW_TEST_DATABASE: '', TEST_DATABASE_URL: '' })).toBe('sqlite')
  })

  it('refuses any other AIRFLOW_TEST_DATABASE', () => {
    expect(() => chooseAirflowDatabase({ AIRFLOW_TEST_DATABASE: 'mysql' })).toThrow('AIRFLOW_TEST_DATABASE is postgres or sqlite, not "mysql"')
  })

  it('names each fresh database after the server URL\'s own, a valid name of at most 63 bytes', () => {
    const a = freshDatabaseName(SERVER)
    const b = freshDatabaseName(SERVER)
    expect(a).toMatch(/^slipway_ci_4242_af_[0-9a-z]{26}$/)
    expect(b).not.toBe(a)
    const long = freshDatabaseName(`postgres://u:p@127.0.0.1/${'My-Database'.repeat(8)}`)
    expect(long).toMatch(/^my_databasemy_databasemy_datab_af_[0-9a-z]{26}$/)
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(63)
    expect(freshDatabaseName('postgres://u:p@127.0.0.1')).toMatch(/^slipway_af_/)
  })

  it('is SQLite in Airflow\'s home with nothing to drop when sqlite is chosen', async () => {
    const database = await airflowDatabase({ AIRFLOW_TEST_DATABASE: 'sqlite', TEST_DATABASE_URL: SERVER })
    expect(database.url).toBeUndefined()
    await database.drop()
  })

  it('fails, naming both variables, when PostgreSQL is asked for without TEST_DATABASE_URL', async () => {
    await expect(airflowDatabase({ AIRFLOW_TEST_DATABASE: 'postgres' })).rejects
      .toThrow('AIRFLOW_TEST_DATABASE=postgres asks for PostgreSQL, and TEST_DATABASE_URL (its server) is not set')
  })
})
