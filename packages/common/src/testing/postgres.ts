// The PostgreSQL the tests may use: TEST_DATABASE_URL. Without it the PostgreSQL tests say skipped, unless
// SLIPWAY_REQUIRE_POSTGRES=1 (CI sets it) makes them run and fail, naming the missing variable: a skipped
// PostgreSQL test must be asked for, never the quiet result of a machine without the database.

export interface TestPostgres {
  /** True when no PostgreSQL is given and none is required: the PostgreSQL tests are skipped. */
  skip: boolean
  /** TEST_DATABASE_URL; throws, naming both variables, when it is not set (a run that requires PostgreSQL). */
  url: () => string
}

const on = (value: string | undefined): boolean => value === '1' || value === 'true'

/**
 * The PostgreSQL of the tests named `what`, said once when they are skipped or bound to fail. `env` is the
 * process's environment unless a test of this helper hands in its own.
 */
export function testPostgres (what: string, env: NodeJS.ProcessEnv = process.env): TestPostgres {
  const given = env.TEST_DATABASE_URL ?? ''
  const required = on(env.SLIPWAY_REQUIRE_POSTGRES)
  if (given === '') {
    console.warn(required
      ? `${what}: SLIPWAY_REQUIRE_POSTGRES=1 and TEST_DATABASE_URL is not set; the PostgreSQL tests fail`
      : `${what}: TEST_DATABASE_URL is not set; the PostgreSQL tests are reported as skipped`)
  }
  return {
    skip: given === '' && !required,
    url: () => {
      if (given === '') {
        throw new Error(`${what}: TEST_DATABASE_URL is not set, and SLIPWAY_REQUIRE_POSTGRES=1 requires the PostgreSQL tests to run`)
      }
      return given
    }
  }
}
