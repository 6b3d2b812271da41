import { describe, expect, it } from 'vitest'
import { fastConfiguration, run, startSite, stepCall } from '../helpers/site.ts'

describe('destroy_nodes (redeploy_server)', () => {
  it('cordons and drains the node, clears its labels, has Drydock destroy it, then removes it from the cluster', async () => {
    const site = await startSite({ nodes: ['n1', 'n2'] })
    site.kubernetes.pods.push(
      { namespace: 'ucp', name: 'api-1', node: 'n1' },
      { namespace: 'ucp', name: 'db-0', node: 'n1' },
      { namespace: 'kube-system', name: 'calico-x', node: 'n1', daemonSet: true },
      { namespace: 'ucp', name: 'api-2', node: 'n2' }
    )
    site.kubernetes.refusals.set('ucp/db-0', 1)
    const call = stepCall({
      dagId: 'redeploy_server',
      parameters: { target_nodes: 'n1' },
      xcom: { deployment_configuration: fastConfiguration({ 'kubernetes_provisioner.drain_grace_period': 45 }) }
    })
    const { error, io } = await run('destroy_nodes', call, site.deps)
    expect(error).toBeUndefined()

    const [cordon] = site.kubernetes.callsTo('PATCH', '/api/v1/nodes/n1')
    expect(cordon!.body).toEqual({ spec: { unschedulable: true } })
    expect(cordon!.headers['content-type']).toBe('application/strategic-merge-patch+json')
    expect(cordon!.headers.authorization).toBe('Bearer kube-token')
    const evictions = site.kubernetes.calls.filter((c) => c.path.endsWith('/eviction')).map((c) => c.path)
    expect(evictions).toEqual([
      '/api/v1/namespaces/ucp/pods/api-1/eviction', '/api/v1/namespaces/ucp/pods/db-0/eviction', '/api/v1/namespaces/ucp/pods/db-0/eviction'
    ])
    expect(site.kubernetes.calls.find((c) => c.path.endsWith('/eviction'))!.body).toEqual({
      apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'api-1', namespace: 'ucp' }, deleteOptions: { gracePeriodSeconds: 45 }
    })
    expect(io.lines).toContainEqual({
      event: 'Eviction of ucp/db-0 refused for now: Cannot evict pod as it would violate the pod\'s disruption budget.', level: 'warning'
    })
    expect(io.text()).toContain('Node n1 drained')

    const [labels] = site.promenade.callsTo('PUT', '/node-labels/n1')
    expect(labels!.body).toEqual({})
    expect(site.drydock.callsTo('POST', '/tasks')[0]!.body).toMatchObject({
      action: 'destroy_nodes', node_filter: { filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: ['n1'] }] }
    })
    expect(site.kubernetes.callsTo('DELETE', '/api/v1/nodes/')).toHaveLength(1)
    expect([...site.kubernetes.nodes.keys()]).toEqual(['n2'])
    expect(site.kubernetes.pods.map((p) => p.name)).toEqual(['calico-x', 'api-2'])
    expect(io.text()).toContain('Node n1 decommissioned: removed from the cluster')

    // the order: drained, labels cleared, destroyed by Drydock, then removed from the cluster
    const at = (text: string): number => io.lines.findIndex((l) => l.event.startsWith(text))
    expect(at('Node n1 drained')).toBeLessThan(at('Labels of n1 cleared'))
    expect(at('Labels of n1 cleared')).toBeLessThan(at('Drydock destroy_nodes task task-1 created'))
    expect(at('Drydock destroy_nodes task task-1 ended')).toBeLessThan(at('Node n1 decommissioned'))
  })

  it('fails, leaving the node in the cluster, when Drydock does not destroy it', async () => {
    const site = await startSite({ nodes: ['n1'] })
    site.drydock.plan = () => ({ result: 'failure', failures: ['n1'] })
    const { error } = await run('destroy_nodes', stepCall({ dagId: 'redeploy_server', parameters: { target_nodes: 'n1' } }), site.deps)
    expect(error?.message).toBe('Drydock destroy_nodes task task-1 ended failure; not destroyed: n1')
    expect(site.kubernetes.callsTo('DELETE', '/api/v1/nodes/')).toHaveLength(0)
  })

  it('goes on for a node the cluster does not have', async () => {
    const site = await startSite()
    const { error, io } = await run('destroy_nodes', stepCall({ dagId: 'redeploy_server', parameters: { target_nodes: 'ghost' } }), site.deps)
    expect(error).toBeUndefined()
    expect(io.lines).toContainEqual({ event: 'Node ghost is not in the Kubernetes cluster: nothing to drain', level: 'warning' })
    expect(io.text()).toContain('Node ghost was not in the cluster')
  })
})
