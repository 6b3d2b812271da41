// An action record as the database keeps it, for tests: a started deploy_site with a fresh id, unless overridden.
import { newUlid } from '@slipway/common'
import type { ActionRecord } from '../../src/db/repositories.ts'

export function actionRecord (overrides: Partial<ActionRecord> = {}): ActionRecord {
  return {
    id: newUlid(),
    name: 'deploy_site',
    parameters: { 'continue-on-fail': 'true', nested: { a: [1, 2] } },
    dag_id: 'deploy_site',
    dag_execution_date: '2026-11-23T00:00:00.000Z',
    user: 'admin',
    user_id: 'admin',
    project_id: 'service',
    datetime: new Date().toISOString(),
    context_marker: '123e4567-e89b-12d3-a456-426614174000',
    committed_rev_id: 3,
    allow_intermediate_commits: false,
    validation_failed: false,
    tags_done: false,
    start_state: 'started',
    start_reason: null,
    trigger_at: null,
    ...overrides
  }
}
