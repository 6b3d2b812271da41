// Pure pieces: trigger rules and run outcome, failure-injection rules, tokens, users, workflow data.
import { describe, expect, it } from 'vitest'
import { parseRules, planTask } from '../../src/domain/injection.ts'
import { readiness, runOutcome } from '../../src/domain/scheduler-rules.ts'
import { readLogToken, signJwt, signLogToken, verifyJwt } from '../../src/domain/tokens.ts'
import { findUser, parseUsers } from '../../src/domain/users.ts'
import { leafTasks, siteWorkflows } from '../../src/domain/workflows.ts'
import { loadConfig } from '../../src/config.ts'

describe('readiness (trigger rules)', () => {
  it('runs a task without upstream at once', () => {
    expect(readiness('all_success', [])).toBe('run')
  })
  it('all_success: waits, runs, becomes upstream_failed on any failure, skipped on a skipped upstream', () => {
    expect(readiness('all_success', ['success', 'running'])).toBe('wait')
    expect(readiness('all_success', ['success', 'success'])).toBe('run')
    expect(readiness('all_success', ['running', 'failed'])).toBe('upstream_failed')
    expect(readiness('all_success', ['success', 'upstream_failed'])).toBe('upstream_failed')
    expect(readiness('all_success', ['success', 'skipped'])).toBe('skipped')
  })
  it('all_done runs once everything upstream finished, whatever the outcome', () => {
    expect(readiness('all_done', ['failed', 'up_for_retry'])).toBe('wait')
    expect(readiness('all_done', ['failed', 'skipped', 'upstream_failed'])).toBe('run')
  })
  it('none_failed and one_success', () => {
    expect(readiness('none_failed', ['skipped', 'success'])).toBe('run')
    expect(readiness('none_failed', ['failed', null])).toBe('upstream_failed')
    expect(readiness('one_success', ['success', null])).toBe('run')
    expect(readiness('one_success', ['failed', 'skipped'])).toBe('upstream_failed')
    expect(readiness('one_success', ['skipped', 'skipped'])).toBe('skipped')
  })
  it('a run fails only when a leaf failed or was upstream_failed', () => {
    expect(runOutcome(['success', 'skipped'])).toBe('success')
    expect(runOutcome(['success', 'upstream_failed'])).toBe('failed')
  })
})

describe('failure injection', () => {
  const address = { dagId: 'deploy_site.drydock_build', parentDagId: 'deploy_site', group: 'drydock_build', taskId: 'prepare_site' }
  const none = { fail: [], hang: [] }

  it('reads [dag_id/]task_id[=N] rules and refuses malformed ones', () => {
    expect(parseRules(' a , deploy_site/b=2', 'X')).toEqual([
      { dagId: null, taskId: 'a', times: Number.POSITIVE_INFINITY },
      { dagId: 'deploy_site', taskId: 'b', times: 2 }
    ])
    expect(() => parseRules('a=b=c', 'ENGINE_FAIL_TASKS')).toThrow(/ENGINE_FAIL_TASKS/)
  })

  it('matches sub-DAG tasks by bare or group-qualified id and by parent or own DAG', () => {
    expect(planTask(address, { fail: { 'drydock_build.prepare_site': 2 } }, none, 50).failTries).toBe(2)
    expect(planTask(address, { fail: { prepare_site: 'always' } }, none, 50).failTries).toBe(Number.POSITIVE_INFINITY)
    expect(planTask(address, undefined, { fail: parseRules('deploy_site/prepare_site=1', 'X'), hang: [] }, 50).failTries).toBe(1)
    expect(planTask(address, undefined, { fail: parseRules('update_site/prepare_site', 'X'), hang: [] }, 50).failTries).toBe(0)
    expect(planTask(address, undefined, { fail: [], hang: parseRules('drydock_build.prepare_site', 'X') }, 50).hang).toBe(true)
    expect(planTask(address, { task_ms: { prepare_site: 7 } }, none, 50).durationMs).toBe(7)
    expect(planTask(address, { task_ms: 3 }, none, 50).durationMs).toBe(3)
    expect(planTask(address, {}, none, 50)).toEqual({ failTries: 0, hang: false, skip: false, deferMs: null, durationMs: 50 })
  })
})

describe('tokens', () => {
  it('verifies its own JWTs until exp and refuses tampered or foreign ones', () => {
    const now = Date.now()
    const token = signJwt('s', 'admin', 'ADMIN', 60, now)
    expect(verifyJwt('s', token, now)).toMatchObject({ sub: 'admin', role: 'ADMIN', exp: Math.floor(now / 1000) + 60 })
    expect(verifyJwt('s', token, now + 61_000)).toBeNull()
    expect(verifyJwt('other', token, now)).toBeNull()
    const [h, , sig] = token.split('.')
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'x', exp: 9e9 })).toString('base64url')}.${sig}`
    expect(verifyJwt('s', forged, now)).toBeNull()
  })
  it('round-trips log positions and refuses foreign tokens', () => {
    const token = signLogToken('s', { tiId: 't', tryNumber: 2, offset: 5 })
    expect(readLogToken('s', token)).toEqual({ tiId: 't', tryNumber: 2, offset: 5 })
    expect(readLogToken('x', token)).toBeNull()
    expect(readLogToken('s', 'nope')).toBeNull()
  })
})

describe('users and config', () => {
  it('parses user:password[:role] and finds users by credentials', () => {
    const users = parseUsers('admin:admin, bob:pw:viewer')
    expect(users).toEqual([{ username: 'admin', password: 'admin', role: 'ADMIN' }, { username: 'bob', password: 'pw', role: 'VIEWER' }])
    expect(findUser(users, 'bob', 'pw')?.role).toBe('VIEWER')
    expect(findUser(users, 'bob', 'no')).toBeUndefined()
    expect(() => parseUsers('nopassword')).toThrow(/ENGINE_USERS/)
  })
  it('reads an empty side-effect URL as switched off and keeps the defaults otherwise', () => {
    const config = loadConfig({ SITE_URL: '', PORT: '0' })
    expect(config.SITE_URL).toBe('none')
    expect(config.BOOTSTRAP_URL).toBe('http://127.0.0.1:9001/api/v1.0')
    expect(config.PORT).toBe(0)
    expect(config.ENGINE_DAGS_PAUSED_AT_CREATION).toBe(true)
  })
})

describe('site workflows as data', () => {
  it('has the step counts of spec/orchestrator.md §8.2 (parent tasks plus sub-DAG tasks)', () => {
    const dags = siteWorkflows()
    const count = (id: string) => dags.filter((d) => d.dag_id === id || d.parent === id).reduce((n, d) => n + d.tasks.length, 0)
    expect(Object.fromEntries(['deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes', 'test_site'].map((id) => [id, count(id)]))).toEqual({
      deploy_site: 21, update_site: 25, update_software: 15, redeploy_server: 12, relabel_nodes: 12, test_site: 5
    })
    for (const dag of dags) {
      const ids = new Set(dag.tasks.map((t) => t.task_id))
      for (const t of dag.tasks) for (const up of t.upstream) expect(ids.has(up), `${dag.dag_id}.${t.task_id} ← ${up}`).toBe(true)
    }
    expect(leafTasks(dags.find((d) => d.dag_id === 'deploy_site')!)).toEqual(new Set(['deployment_status', 'final_deployment_status']))
  })
})
