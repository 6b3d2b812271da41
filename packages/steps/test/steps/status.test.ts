import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { fastConfiguration, REVISION, run, startSite, stepCall } from '../helpers/site.ts'

describe('create_action_tag', () => {
  it.each([
    [{ 'armada_build.armada_get_releases': 'success', skip_upgrade_airflow: 'success', upgrade_airflow: 'skipped' }, 'site-action-success'],
    [{ 'armada_build.armada_get_releases': 'failed', skip_upgrade_airflow: null }, 'site-action-failure'],
    [{ 'armada_build.armada_get_releases': 'success', upgrade_airflow: 'upstream_failed' }, 'site-action-failure']
  ])('tags the revision by the watched tasks\' states (%j → %s)', async (taskStates, tag) => {
    const site = await startSite()
    const { error, io } = await run('create_action_tag', stepCall({ taskStates }), site.deps)
    expect(error).toBeUndefined()
    expect(site.deckhand.callsTo('POST', '/revisions/').map((c) => c.path)).toEqual([`/revisions/${REVISION}/tags/${tag}`])
    expect(io.text()).toContain(`Revision ${REVISION} tagged ${tag}`)
  })
})

describe('deployment_status', () => {
  const release = (data: Record<string, string> | undefined): Record<string, unknown> =>
    (parse(data?.release ?? '') as { deployment: Record<string, unknown> }).deployment

  it('creates the ConfigMap named by the settings, then patches it at the end', async () => {
    const site = await startSite({ env: { DEPLOYMENT_STATUS_CONFIGMAP: 'site-status', DEPLOYMENT_STATUS_NAMESPACE: 'ucp-status' } })
    const first = await run('deployment_status', stepCall({ taskId: 'deployment_status', taskStates: { dag_concurrency_check: 'success' } }), site.deps)
    expect(first.error).toBeUndefined()
    expect(site.kubernetes.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PATCH /api/v1/namespaces/ucp-status/configmaps/site-status', 'POST /api/v1/namespaces/ucp-status/configmaps'
    ])
    expect(release(site.kubernetes.configMaps.get('ucp-status/site-status'))).toMatchObject({
      status: 'running',
      results: 'pending',
      action: '01ACTION',
      'context-marker': 'marker-1',
      user: 'operator',
      document_url: `deckhand+${site.deckhand.url}/revisions/${REVISION}/rendered-documents`
    })
    expect(first.io.text()).toContain('ConfigMap ucp-status/site-status created: status running, results pending')

    const final = await run('deployment_status', stepCall({ taskId: 'final_deployment_status', taskStates: { verify_site: 'success' } }), site.deps)
    expect(final.error).toBeUndefined()
    expect(site.kubernetes.callsTo('PATCH', '/api/v1/namespaces/')).toHaveLength(2)
    expect(site.kubernetes.callsTo('PATCH', '/api/v1/namespaces/')[1]!.headers['content-type']).toBe('application/merge-patch+json')
    expect(release(site.kubernetes.configMaps.get('ucp-status/site-status'))).toMatchObject({ status: 'completed', results: 'successful' })
    expect(final.io.text()).toContain('ConfigMap ucp-status/site-status updated: status completed, results successful')
  })

  it('takes the name and namespace from the deployment configuration, and says failed when a task failed', async () => {
    const site = await startSite()
    const configuration = fastConfiguration({ 'deployment_status.configmap': 'from-doc', 'deployment_status.namespace': 'doc-ns' })
    const call = stepCall({ taskId: 'final_deployment_status', taskStates: { verify_site: 'failed' }, xcom: { deployment_configuration: configuration } })
    const { error } = await run('deployment_status', call, site.deps)
    expect(error).toBeUndefined()
    expect(release(site.kubernetes.configMaps.get('doc-ns/from-doc'))).toMatchObject({ status: 'completed', results: 'failed' })
  })

  it('writes nothing when the concurrency check did not pass', async () => {
    const site = await startSite()
    const { error } = await run('deployment_status', stepCall({ taskStates: { dag_concurrency_check: 'failed' } }), site.deps)
    expect(error?.message).toBe('The concurrency check did not pass, so the deployment status is not updated')
    expect(site.kubernetes.calls).toHaveLength(0)
  })
})
