// POST /_stub/steps/{step}: the design and action steps against a fake store and bootstrap service, what every step
// forwards, and the requests refused (400 for an unknown step or a bad body, 401 without a token when tokens are set).
import { describe, expect, it } from 'vitest'
import { MARKER, stepSite } from '../helpers/steps.ts'

const warn = (event: string) => ({ level: 'warning', event })
const info = (event: string) => ({ level: 'info', event })
const error = (event: string) => ({ level: 'error', event })

describe('preflight', () => {
  it('checks the store and the bootstrap service, forwarding the token, the context marker and the end user', async () => {
    const { step, targets } = await stepSite()
    const res = await step('preflight')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ outcome: 'success', log: [info('store is healthy'), info('bootstrap is healthy')] })
    expect(targets.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /store/health', 'GET /bootstrap/health'])
    for (const call of targets.calls) {
      expect(call.headers).toMatchObject({ 'x-auth-token': 'svc-token', 'x-context-marker': MARKER, 'x-end-user': 'operator1' })
    }
  })

  it('forwards the caller\'s X-Context-Marker and X-End-User over the action\'s own', async () => {
    const { step, targets } = await stepSite()
    await step('preflight', { headers: { 'x-context-marker': 'caller-marker', 'x-end-user': 'caller' } })
    for (const call of targets.calls) expect(call.headers).toMatchObject({ 'x-context-marker': 'caller-marker', 'x-end-user': 'caller' })
  })

  it('fails when the store is unhealthy, the reason as the last (error) line', async () => {
    const { step, targets } = await stepSite()
    targets.options.fail['GET /store/health'] = 503
    expect((await step('preflight')).json()).toEqual({
      outcome: 'failed',
      log: [error('DownstreamError: Downstream failure: store (The store answered GET /health with 503)')]
    })
  })

  it('skips what is not configured with a warning each, and succeeds', async () => {
    const { step } = await stepSite({ targets: false })
    expect((await step('preflight')).json()).toEqual({
      outcome: 'success',
      log: [
        warn('No store configured (STORE_URL empty or none): skipped the store health check'),
        warn('No bootstrap configured (BOOTSTRAP_URL empty or none): skipped the bootstrap health check')
      ]
    })
  })
})

describe('rendered_doc and deckhand_validate', () => {
  it('retrieves the rendered documents of the design_ref\'s revision', async () => {
    const { step, targets } = await stepSite()
    targets.options.documents = '---\nschema: a/B/v1\nmetadata: {name: x}\ndata: {}\n---\nschema: a/C/v1\nmetadata: {name: y}\ndata: {}\n'
    expect((await step('rendered_doc')).json()).toEqual({ outcome: 'success', log: [info('Retrieved 2 rendered documents of revision 7')] })
    expect(targets.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /store/revisions/7/rendered-documents'])
  })

  it('fails rendered_doc when the store does not have the revision; warns without a design_ref', async () => {
    const { step, targets } = await stepSite()
    targets.options.fail['GET /store/revisions/7/rendered-documents'] = 404
    expect((await step('rendered_doc')).json()).toEqual({
      outcome: 'failed',
      log: [error('DownstreamError: Downstream failure: store (The store answered GET /revisions/7/rendered-documents with 404)')]
    })
    const conf = { action: { id: 'ACT' } }
    expect((await step('rendered_doc', { body: { conf } })).json()).toEqual({ outcome: 'success', log: [warn('No design_ref in conf: nothing to retrieve')] })
  })

  it('passes deckhand_validate when no validation failed, and fails it naming the failed ones', async () => {
    const { step, targets } = await stepSite()
    expect((await step('deckhand_validate')).json()).toEqual({ outcome: 'success', log: [info('Revision 7: 1 validation(s), none failed')] })
    targets.options.validationStatus = 'failure'
    expect((await step('deckhand_validate')).json()).toEqual({
      outcome: 'failed',
      log: [error('Site design validation failed in the store: deckhand-schema-validation')]
    })
  })

  it('skips deckhand_validate without a store', async () => {
    const { step } = await stepSite({ targets: false })
    expect((await step('deckhand_validate')).json()).toEqual({
      outcome: 'success',
      log: [warn('No store configured (STORE_URL empty or none): skipped the validations of revision 7')]
    })
  })
})

describe('promenade_validate', () => {
  it('sends the design_ref to validatedesign and succeeds on Success', async () => {
    const { step, targets } = await stepSite()
    expect((await step('promenade_validate')).json()).toEqual({ outcome: 'success', log: [info('Bootstrap design validation succeeded')] })
    expect(targets.calls[0]).toMatchObject({
      method: 'POST',
      path: '/bootstrap/validatedesign',
      body: { rel: 'design', href: `deckhand+${targets.storeUrl}/revisions/7/rendered-documents`, type: 'application/x-yaml' }
    })
  })

  it('fails with the bootstrap service\'s messages when it rejects the design', async () => {
    const { step, targets } = await stepSite()
    targets.options.designValid = false
    expect((await step('promenade_validate')).json()).toEqual({
      outcome: 'failed',
      log: [error('Bootstrap design validation failed: There are 0 Docker documents. However, there should be one.')]
    })
  })
})

describe('create_action_tag', () => {
  it('tags the committed revision site-action-success when no watched task failed', async () => {
    const { step, targets } = await stepSite()
    const states = { 'armada_build.armada_get_releases': 'success', upgrade_airflow: 'skipped', skip_upgrade_airflow: null, other: 'failed' }
    expect((await step('create_action_tag', { body: { task_states: states } })).json()).toEqual({ outcome: 'success', log: [info('Revision 7 tagged site-action-success')] })
    expect(targets.tags).toEqual([{ revision: 7, tag: 'site-action-success' }])
  })

  it('tags site-action-failure when a watched task ended failed or upstream_failed', async () => {
    const { step, targets } = await stepSite()
    await step('create_action_tag', { body: { task_states: { 'armada_build.armada_get_releases': 'upstream_failed' } } })
    await step('create_action_tag', { body: { task_states: { skip_upgrade_airflow: 'failed' } }, action: { committed_rev_id: 9 } })
    expect(targets.tags).toEqual([{ revision: 7, tag: 'site-action-failure' }, { revision: 9, tag: 'site-action-failure' }])
  })

  it('tags the design_ref\'s revision when the action has no committed revision; warns when there is neither', async () => {
    const { step, targets } = await stepSite()
    await step('create_action_tag', { action: { committed_rev_id: undefined } })
    expect(targets.tags).toEqual([{ revision: 7, tag: 'site-action-success' }])
    expect((await step('create_action_tag', { body: { conf: {} } })).json()).toEqual({
      outcome: 'success',
      log: [warn('No revision in conf: tag site-action-success not written')]
    })
  })

  it('fails when the store refuses the tag, and skips without a store', async () => {
    const { step, targets } = await stepSite()
    targets.options.fail['POST /store/revisions/7/tags/site-action-success'] = 409
    expect((await step('create_action_tag')).json()).toEqual({
      outcome: 'failed',
      log: [error('DownstreamError: Downstream failure: store (The store answered POST /revisions/7/tags/site-action-success with 409)')]
    })
    const bare = await stepSite({ targets: false })
    expect((await bare.step('create_action_tag')).json()).toEqual({
      outcome: 'success',
      log: [warn('No store configured (STORE_URL empty or none): skipped tagging revision 7 site-action-success')]
    })
  })
})

describe('deployment_status', () => {
  it('has no ConfigMap API to write to: a warning naming the status, running or completed', async () => {
    const { step, targets } = await stepSite()
    expect((await step('deployment_status', { body: { task_id: 'deployment_status' } })).json()).toEqual({
      outcome: 'success',
      log: [warn('No Kubernetes API for ConfigMaps in this stack: skipped writing deployment-status (status running)')]
    })
    expect((await step('deployment_status', { body: { task_id: 'final_deployment_status' } })).json()).toEqual({
      outcome: 'success',
      log: [warn('No Kubernetes API for ConfigMaps in this stack: skipped writing deployment-status (status completed)')]
    })
    expect(targets.calls).toEqual([])
  })
})

describe('refused requests', () => {
  it('answers 400 with the error body for an unknown step, calling nothing', async () => {
    const { step, targets } = await stepSite()
    for (const name of ['log', 'concurrency_check', 'deploy']) {
      const res = await step(name)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        kind: 'status',
        status: 'Failure',
        code: '400 Bad Request',
        message: 'Unknown step',
        reason: `'${name}' is not a site step; one of: preflight, rendered_doc, deckhand_validate, promenade_validate, verify_site, ` +
          'verify_nodes_exist, deploy_nodes, destroy_nodes, relabel_nodes, create_action_tag, deployment_status'
      })
    }
    expect(targets.calls).toEqual([])
  })

  it('answers 400 for a bad body, before anything is called or moved', async () => {
    const { app, step, targets, nodes } = await stepSite()
    const before = await nodes()
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ dag_id: undefined }, 'body must have required property \'dag_id\''],
      [{ try_number: 0 }, 'body/try_number must be >= 1'],
      [{ try_number: '1' }, 'body/try_number must be integer'],
      [{ conf: 'none' }, 'body/conf must be object'],
      [{ run_id: '' }, 'body/run_id must NOT have fewer than 1 characters'],
      [{ task_states: { upgrade_airflow: 'done' } }, 'task_states of upgrade_airflow: \'done\' is not a task instance state; one of removed, scheduled, ' +
        'queued, running, success, restarting, failed, up_for_retry, up_for_reschedule, upstream_failed, skipped, deferred, or null'],
      [{ surprise: true }, '\'surprise\' is not a field of a step call; its fields are dag_id, task_id, run_id, try_number, conf and task_states']
    ]
    for (const [body, reason] of bad) {
      const res = await step('deploy_nodes', { body })
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request', message: 'Invalid body', reason })
    }
    const broken = await app.inject({ method: 'POST', url: '/_stub/steps/deploy_nodes', headers: { 'content-type': 'application/json' }, payload: '{"dag_id": ' })
    expect(broken.statusCode).toBe(400)
    expect(broken.json()).toMatchObject({ status: 'Failure', code: '400 Bad Request' })
    expect(targets.calls).toEqual([])
    expect(await nodes()).toEqual(before)
  })

  it('answers 401 without a valid token when tokens are required, and runs the step with one', async () => {
    const { step, targets } = await stepSite({ env: { SITE_AUTH_TOKENS: 'site-token' } })
    for (const headers of [{}, { 'x-auth-token': 'wrong' }] as Array<Record<string, string>>) {
      const res = await step('preflight', { headers })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ status: 'Failure', code: '401 Unauthorized', message: 'Unauthenticated' })
    }
    expect(targets.calls).toEqual([])
    const res = await step('preflight', { headers: { 'x-auth-token': 'site-token' } })
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('success')
  })
})
