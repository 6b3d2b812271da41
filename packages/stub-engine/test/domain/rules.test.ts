// Pure pieces: trigger rules and run outcome, failure-injection rules, tokens, users, workflow data.
import { describe, expect, it } from 'vitest'
import { parseRules, planTask } from '../../src/domain/injection.ts'
import { readiness, runOutcome } from '../../src/domain/scheduler-rules.ts'
import { checkJwt, readLogToken, signJwt, signLogToken, verifyJwt } from '../../src/domain/tokens.ts'
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
  const address = { dagId: 'deploy_site', taskId: 'drydock_build.prepare_site' }
  const none = { fail: [], hang: [] }

  it('reads [dag_id/]task_id[=N] rules and refuses malformed ones', () => {
    expect(parseRules(' a , deploy_site/b=2', 'X')).toEqual([
      { dagId: null, taskId: 'a', times: Number.POSITIVE_INFINITY },
      { dagId: 'deploy_site', taskId: 'b', times: 2 }
    ])
    expect(() => parseRules('a=b=c', 'ENGINE_FAIL_TASKS')).toThrow(/ENGINE_FAIL_TASKS/)
  })

  it('matches grouped tasks by their engine id or their bare name, in any DAG or the named one', () => {
    expect(planTask(address, { fail: { 'drydock_build.prepare_site': 2 } }, none, 50).failTries).toBe(2)
    expect(planTask(address, { fail: { prepare_site: 'always' } }, none, 50).failTries).toBe(Number.POSITIVE_INFINITY)
    expect(planTask(address, undefined, { fail: parseRules('deploy_site/prepare_site=1', 'X'), hang: [] }, 50).failTries).toBe(1)
    expect(planTask(address, undefined, { fail: parseRules('update_site/prepare_site', 'X'), hang: [] }, 50).failTries).toBe(0)
    expect(planTask(address, undefined, { fail: [], hang: parseRules('drydock_build.prepare_site', 'X') }, 50).hang).toBe(true)
    expect(planTask(address, { task_ms: { prepare_site: 7 } }, none, 50).durationMs).toBe(7)
    expect(planTask(address, { task_ms: 3 }, none, 50).durationMs).toBe(3)
    expect(planTask(address, {}, none, 50)).toEqual({ failTries: 0, hang: false, skip: false, deferMs: null, durationMs: 50 })
    expect(planTask(address, { fail: { 'armada_build.prepare_site': 1 } }, none, 50).failTries).toBe(0)
    expect(planTask({ dagId: 'test_site', taskId: 'action_xcom' }, { fail: { action_xcom: 1 } }, none, 50).failTries).toBe(1)
  })
})

describe('tokens', () => {
  it('verifies its own JWTs until exp; an expired one is told apart from one it cannot verify', () => {
    const now = Date.now()
    const token = signJwt('s', 'admin', 'ADMIN', 60, now)
    expect(verifyJwt('s', token, now)).toMatchObject({ sub: 'admin', role: 'ADMIN', exp: Math.floor(now / 1000) + 60 })
    expect(verifyJwt('s', token, now + 61_000)).toBeNull()
    expect(checkJwt('s', token, now + 61_000)).toEqual({ problem: 'expired' })
    expect(checkJwt('other', token, now)).toEqual({ problem: 'invalid' })
    expect(checkJwt('other', token, now + 61_000)).toEqual({ problem: 'invalid' })
    const [h, , sig] = token.split('.')
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'x', exp: 9e9 })).toString('base64url')}.${sig}`
    expect(checkJwt('s', forged, now)).toEqual({ problem: 'invalid' })
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
  it('reads the peers of the site steps and keeps the defaults otherwise', () => {
    const config = loadConfig({ DRYDOCK_URL: 'http://127.0.0.1:9300/api/v1.0', PORT: '0' })
    expect(config.DRYDOCK_URL).toBe('http://127.0.0.1:9300/api/v1.0')
    expect(config.DECKHAND_URL).toBe('')
    expect(config.PORT).toBe(0)
    expect(config.ENGINE_DAGS_PAUSED_AT_CREATION).toBe(true)
  })
})

describe('site workflows as data', () => {
  const dags = siteWorkflows()
  const dag = (id: string) => dags.find((d) => d.dag_id === id)!
  const ids = (id: string) => dag(id).tasks.map((t) => t.task_id)
  const upstreamOf = (id: string, taskId: string) => [...dag(id).tasks.find((t) => t.task_id === taskId)!.upstream].sort()

  it('is the six workflows in the task-group shape: one DAG each, grouped tasks named <group>.<task>', () => {
    expect(dags.map((d) => d.dag_id)).toEqual(['deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes', 'test_site'])
    expect(ids('deploy_site')).toEqual([
      'action_xcom', 'dag_concurrency_check', 'preflight.ucp_preflight_check', 'get_rendered_doc', 'deployment_configuration',
      'validate_site_design.deckhand_validate_site_design', 'validate_site_design.drydock_validate_site_design',
      'validate_site_design.promenade_validate_site_design', 'validate_site_design.armada_validate_site_design',
      'deployment_status', 'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes',
      'armada_build.armada_post_apply', 'armada_build.armada_get_releases', 'create_action_tag', 'final_deployment_status'
    ])
    expect(ids('update_site').filter((t) => t.startsWith('drydock_build.'))).toEqual([
      'drydock_build.verify_nodes_exist', 'drydock_build.verify_site', 'drydock_build.prepare_site', 'drydock_build.prepare_and_deploy_nodes'
    ])
    expect(Object.fromEntries(dags.map((d) => [d.dag_id, d.tasks.length]))).toEqual({
      deploy_site: 17, update_site: 21, update_software: 13, redeploy_server: 10, relabel_nodes: 10, test_site: 4
    })
    for (const d of dags) {
      const known = new Set(d.tasks.map((t) => t.task_id))
      expect(known.size, d.dag_id).toBe(d.tasks.length)
      for (const t of d.tasks) for (const up of t.upstream) expect(known.has(up), `${d.dag_id}: ${t.task_id} ← ${up}`).toBe(true)
      expect(d.tasks.some((t) => t.operator === 'SubDagOperator'), d.dag_id).toBe(false)
    }
  })

  it('has each workflow\'s dependencies, trigger rules, retries and leaves', () => {
    const validators = ids('deploy_site').filter((t) => t.startsWith('validate_site_design.'))
    for (const v of validators) {
      expect(upstreamOf('deploy_site', v)).toEqual(['dag_concurrency_check', 'deployment_configuration', 'get_rendered_doc', 'preflight.ucp_preflight_check'])
      expect(dag('deploy_site').tasks.find((t) => t.task_id === v)!.retries).toBe(1)
    }
    expect(upstreamOf('deploy_site', 'drydock_build.verify_site')).toEqual([...validators].sort())
    expect(upstreamOf('deploy_site', 'get_rendered_doc')).toEqual(['deployment_configuration'])
    expect(upstreamOf('deploy_site', 'create_action_tag')).toEqual(['armada_build.armada_get_releases'])
    expect(dag('deploy_site').tasks.find((t) => t.task_id === 'armada_build.armada_post_apply')!.retries).toBe(5)
    expect(dag('deploy_site').tasks.filter((t) => t.trigger_rule === 'all_done').map((t) => t.task_id)).toEqual(['create_action_tag', 'final_deployment_status'])
    expect(upstreamOf('update_site', 'drydock_build.verify_nodes_exist')).toEqual(['drydock_build.prepare_site'])
    expect(upstreamOf('update_site', 'drydock_build.prepare_and_deploy_nodes')).toEqual(['drydock_build.verify_nodes_exist'])
    expect(upstreamOf('update_site', 'create_action_tag')).toEqual(['skip_upgrade_airflow', 'upgrade_airflow'])
    expect(upstreamOf('redeploy_server', 'drydock_build.verify_site')).toEqual(['destroy_nodes'])
    expect(upstreamOf('relabel_nodes', 'relabel_nodes')).toHaveLength(4)
    expect(upstreamOf('test_site', 'armada_test_releases')).toEqual(['deployment_configuration', 'preflight.ucp_preflight_check'])
    expect(leafTasks(dag('deploy_site'))).toEqual(new Set(['deployment_status', 'final_deployment_status']))
    expect(leafTasks(dag('redeploy_server'))).toEqual(new Set(['drydock_build.prepare_and_deploy_nodes']))
  })
})
