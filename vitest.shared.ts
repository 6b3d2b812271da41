// What every vitest project of the suite shares. A project defined in a config file of its own
// (packages/*/vitest.config.ts, the *.quirks.config.ts) takes none of the root config's test options, so each one
// builds on this module instead: one place for the suite's limits.
import { defineProject, type UserWorkspaceConfig } from 'vitest/config'

/**
 * The projects of the default `npm test`: each package, plus suites run once more against the store's Deckhand quirk
 * mode. The orchestrator's reliability project (packages/orchestrator/vitest.reliability.config.ts) is not among them:
 * `npm run test:reliability` runs it (vitest.reliability.config.ts), and CI runs it after the default run.
 */
export const DEFAULT_PROJECTS = [
  'packages/*',
  'packages/orchestrator/vitest.quirks.config.ts',
  'packages/bootstrap/vitest.quirks.config.ts'
]

/**
 * The suite's limits per test and per hook. Generous on purpose: on a machine whose cores are busy with other work
 * a test that takes one second alone takes several, and a limit is there to catch a hang, not a slow machine.
 */
export const SUITE_TIMEOUTS = { testTimeout: 20_000, hookTimeout: 20_000 }

/** How long an expect.poll() keeps trying unless it says: vitest's own second is a guess about a quiet machine. */
export const SUITE_POLL = { timeout: 10_000, interval: 50 }

/** A project of the suite: its own test options over the shared ones (a project may raise its limits). */
export function suiteProject (test: NonNullable<UserWorkspaceConfig['test']>): UserWorkspaceConfig {
  return defineProject({ test: { ...SUITE_TIMEOUTS, expect: { poll: SUITE_POLL }, ...test } })
}
