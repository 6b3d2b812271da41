// The tests' PostgreSQL: skipped without TEST_DATABASE_URL unless SLIPWAY_REQUIRE_POSTGRES makes them run and fail.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { testPostgres } from '../src/testing/postgres.ts'

const URL = 'postgres://slipway:slipway@127.0.0.1:5432/slipway_test'

describe('testPostgres', () => {
  afterEach(() => { vi.restoreAllMocks() })

  it('runs the PostgreSQL tests on TEST_DATABASE_URL when it is set, required or not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const required of [undefined, '1']) {
      const pg = testPostgres('db tests', { TEST_DATABASE_URL: URL, SLIPWAY_REQUIRE_POSTGRES: required })
      expect(pg.skip).toBe(false)
      expect(pg.url()).toBe(URL)
    }
    expect(warn).not.toHaveBeenCalled()
  })

  it('skips them, saying so, when TEST_DATABASE_URL is not set and nothing requires them', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const env of [{}, { TEST_DATABASE_URL: '' }, { SLIPWAY_REQUIRE_POSTGRES: '0' }]) {
      expect(testPostgres('db tests', env).skip).toBe(true)
    }
    expect(warn).toHaveBeenCalledTimes(3)
    expect(warn).toHaveBeenLastCalledWith('db tests: TEST_DATABASE_URL is not set; the PostgreSQL tests are reported as skipped')
  })

  it('runs them to a failure naming the variables when SLIPWAY_REQUIRE_POSTGRES is set and TEST_DATABASE_URL is not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const required of ['1', 'true']) {
      const pg = testPostgres('db tests', { SLIPWAY_REQUIRE_POSTGRES: required })
      expect(pg.skip).toBe(false)
      expect(() => pg.url()).toThrow('db tests: TEST_DATABASE_URL is not set, and SLIPWAY_REQUIRE_POSTGRES=1 requires the PostgreSQL tests to run')
    }
    expect(warn).toHaveBeenLastCalledWith('db tests: SLIPWAY_REQUIRE_POSTGRES=1 and TEST_DATABASE_URL is not set; the PostgreSQL tests fail')
  })
})
