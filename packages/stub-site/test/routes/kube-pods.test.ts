// The stand-in's Kubernetes pods: the fixed pods of every deployed node, their lists and reads, evictions (with a
// disruption budget's refusal), deletes, and the stand-in's kubelet removing a terminating pod.
import { describe, expect, it } from 'vitest'
import { EXAMPLE_NODES_FILE, buildTestApp } from '../helpers/site.ts'
import { appWithNodes, eviction, failureStatus, podKeys, podOf, until } from '../helpers/kube.ts'

const ON_N01 = { fieldSelector: 'spec.nodeName=rack1-n01' }

async function app (env: Record<string, string> = {}) {
  return await buildTestApp({ SITE_NODES_FILE: EXAMPLE_NODES_FILE, ...env })
}

describe('GET /api/v1/pods', () => {
  it('answers a PodList of the deployed node\'s pods: a DaemonSet pod in kube-system and two ReplicaSet pods in ucp', async () => {
    const site = await appWithNodes()
    const res = await site.inject({ url: '/api/v1/pods' })
    expect(res.statusCode).toBe(200)
    const list = res.json()
    expect(list).toMatchObject({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: expect.any(String) } })
    // only rack1-n01 of the example site is Deployed
    expect(list.items).toHaveLength(3)
    expect(list.items[0]).not.toHaveProperty('kind')
    const daemon = podOf(list, 'calico-node')
    expect(daemon).toMatchObject({
      metadata: {
        namespace: 'kube-system',
        generateName: 'calico-node-',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'calico-node', controller: true, blockOwnerDeletion: true }]
      },
      spec: { nodeName: 'rack1-n01', terminationGracePeriodSeconds: 30, restartPolicy: 'Always' },
      status: { phase: 'Running', hostIP: '10.23.2.11', qosClass: 'BestEffort' }
    })
    expect(daemon.metadata.name).toMatch(/^calico-node-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    for (const app of ['deckhand-api', 'keystone-api']) {
      expect(podOf(list, app)).toMatchObject({ metadata: { namespace: 'ucp', ownerReferences: [{ kind: 'ReplicaSet' }] } })
    }
    // etcd's order: namespace, then name
    expect(podKeys(list)).toEqual([...podKeys(list)].sort())
  })

  it('selects by spec.nodeName, by label, and pages with a continue token', async () => {
    const site = await appWithNodes()
    const on = await site.inject({ url: '/api/v1/pods', query: ON_N01 })
    expect(on.json().items).toHaveLength(3)
    expect((await site.inject({ url: '/api/v1/pods', query: { fieldSelector: 'spec.nodeName=rack1-n02' } })).json().items).toEqual([])
    const byLabel = await site.inject({ url: '/api/v1/pods', query: { labelSelector: 'app=keystone-api' } })
    expect(byLabel.json().items.map((p: { metadata: { labels: { app: string } } }) => p.metadata.labels.app)).toEqual(['keystone-api'])
    const first = await site.inject({ url: '/api/v1/pods', query: { limit: '2' } })
    expect(first.json().items).toHaveLength(2)
    expect(first.json().metadata).toMatchObject({ remainingItemCount: 1, continue: expect.any(String) })
    const next = await site.inject({ url: '/api/v1/pods', query: { limit: '2', continue: first.json().metadata.continue } })
    expect([...podKeys(first.json()), ...podKeys(next.json())]).toEqual(podKeys(on.json()))
    expect(next.json().metadata).not.toHaveProperty('continue')
  })

  it('answers 400 BadRequest as a Status for a field pods cannot be selected on', async () => {
    const site = await appWithNodes()
    const res = await site.inject({ url: '/api/v1/pods', query: { fieldSelector: 'spec.nope=x' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 })
  })
})

describe('GET /api/v1/namespaces/{ns}/pods', () => {
  it('answers the namespace\'s pods only, and an empty list for a namespace that does not exist', async () => {
    const site = await appWithNodes()
    const ucp = await site.inject({ url: '/api/v1/namespaces/ucp/pods', query: ON_N01 })
    expect(ucp.statusCode).toBe(200)
    expect(ucp.json().items.map((p: { metadata: { namespace: string } }) => p.metadata.namespace)).toEqual(['ucp', 'ucp'])
    const none = await site.inject({ url: '/api/v1/namespaces/nope/pods' })
    expect(none.statusCode).toBe(200)
    expect(none.json()).toMatchObject({ kind: 'PodList', items: [] })
  })
})

describe('GET /api/v1/namespaces/{ns}/pods/{name}', () => {
  it('answers the Pod, and 404 with a Status for an unknown one', async () => {
    const site = await appWithNodes()
    const pod = podOf((await site.inject({ url: '/api/v1/pods' })).json(), 'deckhand-api')
    const res = await site.inject({ url: `/api/v1/namespaces/ucp/pods/${pod.metadata.name}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ kind: 'Pod', apiVersion: 'v1', metadata: { name: pod.metadata.name, namespace: 'ucp', generation: 1 } })
    const missing = await site.inject({ url: '/api/v1/namespaces/ucp/pods/nope' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual(failureStatus(404, 'NotFound', 'pods "nope" not found', { name: 'nope', kind: 'pods' }))
    // another namespace does not hold it
    expect((await site.inject({ url: `/api/v1/namespaces/default/pods/${pod.metadata.name}` })).statusCode).toBe(404)
  })
})

describe('POST /api/v1/namespaces/{ns}/pods/{name}/eviction', () => {
  it('answers 201 with a Success Status; the pod terminates, then the kubelet removes it', async () => {
    const site = await app({ SITE_POD_TERMINATION_MS: '300' })
    const pod = podOf((await site.inject({ url: '/api/v1/pods', query: ON_N01 })).json(), 'deckhand-api')
    const url = `/api/v1/namespaces/ucp/pods/${pod.metadata.name}`
    const res = await site.inject({ method: 'POST', url: `${url}/eviction`, payload: eviction(pod.metadata.name, 'ucp', 30) })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 })
    await until(async () => (await site.inject({ url })).statusCode === 404)
    expect(podKeys((await site.inject({ url: '/api/v1/pods', query: ON_N01 })).json())).not.toContain(`ucp/${pod.metadata.name}`)
  })

  it('keeps the pod terminating for its grace period when the setting allows longer, and takes a second eviction', async () => {
    const site = await app({ SITE_POD_TERMINATION_MS: '600000' })
    const pod = podOf((await site.inject({ url: '/api/v1/pods' })).json(), 'keystone-api')
    const url = `/api/v1/namespaces/ucp/pods/${pod.metadata.name}`
    // no deleteOptions: the pod's own terminationGracePeriodSeconds
    expect((await site.inject({ method: 'POST', url: `${url}/eviction`, payload: eviction(pod.metadata.name, 'ucp') })).statusCode).toBe(201)
    const terminating = await site.inject({ url })
    expect(terminating.json().metadata).toMatchObject({
      deletionGracePeriodSeconds: 30, generation: 2, deletionTimestamp: expect.any(String)
    })
    // the eviction says why the pod goes
    expect(terminating.json().status.conditions).toContainEqual(expect.objectContaining({
      type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting'
    }))
    const again = await site.inject({ method: 'POST', url: `${url}/eviction`, payload: eviction(pod.metadata.name, 'ucp', 30) })
    expect(again.statusCode).toBe(201)
    expect((await site.inject({ url })).json().metadata.resourceVersion).toBe(terminating.json().metadata.resourceVersion)
  })

  it('removes the pod at once with gracePeriodSeconds 0', async () => {
    const site = await app({ SITE_POD_TERMINATION_MS: '600000' })
    const pod = podOf((await site.inject({ url: '/api/v1/pods' })).json(), 'keystone-api')
    const res = await site.inject({ method: 'POST', url: `/api/v1/namespaces/ucp/pods/${pod.metadata.name}/eviction`, payload: eviction(pod.metadata.name, 'ucp', 0) })
    expect(res.statusCode).toBe(201)
    expect((await site.inject({ url: `/api/v1/namespaces/ucp/pods/${pod.metadata.name}` })).statusCode).toBe(404)
  })

  it('answers 404 with a Status for an unknown pod, and 400 when the body names another pod', async () => {
    const site = await appWithNodes()
    const missing = await site.inject({ method: 'POST', url: '/api/v1/namespaces/ucp/pods/nope/eviction', payload: eviction('nope', 'ucp', 0) })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'pods "nope" not found', details: { name: 'nope', kind: 'pods' } })
    const pod = podOf((await site.inject({ url: '/api/v1/pods' })).json(), 'keystone-api')
    const other = await site.inject({ method: 'POST', url: `/api/v1/namespaces/ucp/pods/${pod.metadata.name}/eviction`, payload: eviction('other', 'ucp', 0) })
    expect(other.statusCode).toBe(400)
    expect(other.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'name in URL does not match name in Eviction object' })
  })

  it('answers 429 TooManyRequests, the budget in a cause, for a pod SITE_EVICTION_REFUSED selects; the pod stays', async () => {
    const site = await app({ SITE_EVICTION_REFUSED: 'app=calico-node' })
    const pod = podOf((await site.inject({ url: '/api/v1/pods' })).json(), 'calico-node')
    const url = `/api/v1/namespaces/kube-system/pods/${pod.metadata.name}`
    const res = await site.inject({ method: 'POST', url: `${url}/eviction`, payload: eviction(pod.metadata.name, 'kube-system', 0) })
    expect(res.statusCode).toBe(429)
    expect(res.json()).toEqual(failureStatus(429, 'TooManyRequests',
      'Cannot evict pod as it would violate the pod\'s disruption budget.', { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget slipway-refused-evictions needs 1 healthy pods and has 1 currently' }] }))
    expect((await site.inject({ url })).json().metadata).not.toHaveProperty('deletionTimestamp')
  })

  it('refuses the pods PUT /_stub/evictions selects, and none once it is emptied; a bad selector is a 400', async () => {
    const site = await appWithNodes()
    const pod = podOf((await site.inject({ url: '/api/v1/pods' })).json(), 'deckhand-api')
    const evict = async () => await site.inject({ method: 'POST', url: `/api/v1/namespaces/ucp/pods/${pod.metadata.name}/eviction`, payload: eviction(pod.metadata.name, 'ucp', 0) })
    expect((await site.inject({ url: '/_stub/evictions' })).json()).toEqual({ refused: '' })
    const set = await site.inject({ method: 'PUT', url: '/_stub/evictions', payload: { refused: 'app in (deckhand-api)' } })
    expect(set.json()).toEqual({ refused: 'app in (deckhand-api)' })
    expect((await evict()).statusCode).toBe(429)
    await site.inject({ method: 'PUT', url: '/_stub/evictions', payload: { refused: '' } })
    expect((await evict()).statusCode).toBe(201)
    expect((await site.inject({ method: 'PUT', url: '/_stub/evictions', payload: { refused: 'a==b==c' } })).statusCode).toBe(400)
  })
})

describe('DELETE /api/v1/namespaces/{ns}/pods/{name}', () => {
  it('answers 200 with the Pod marked for deletion; gracePeriodSeconds=0 removes it at once', async () => {
    const site = await app({ SITE_POD_TERMINATION_MS: '600000' })
    const list = (await site.inject({ url: '/api/v1/pods' })).json()
    const now = podOf(list, 'deckhand-api').metadata.name
    const res = await site.inject({ method: 'DELETE', url: `/api/v1/namespaces/ucp/pods/${now}?gracePeriodSeconds=0` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ kind: 'Pod', metadata: { name: now, deletionGracePeriodSeconds: 0, generation: 2 } })
    expect((await site.inject({ url: `/api/v1/namespaces/ucp/pods/${now}` })).statusCode).toBe(404)
    const later = podOf(list, 'keystone-api').metadata.name
    const graceful = await site.inject({ method: 'DELETE', url: `/api/v1/namespaces/ucp/pods/${later}` })
    expect(graceful.json().metadata).toMatchObject({ deletionGracePeriodSeconds: 30, deletionTimestamp: expect.any(String) })
    expect((await site.inject({ url: `/api/v1/namespaces/ucp/pods/${later}` })).statusCode).toBe(200)
    const missing = await site.inject({ method: 'DELETE', url: '/api/v1/namespaces/ucp/pods/nope' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ kind: 'Status', message: 'pods "nope" not found' })
  })
})

describe('the pods of a node through its life', () => {
  it('go with a deleted node, and a node deployed again runs the fixed set anew', async () => {
    const site = await appWithNodes()
    const before = podKeys((await site.inject({ url: '/api/v1/pods', query: ON_N01 })).json())
    await site.inject({ method: 'DELETE', url: '/api/v1/nodes/rack1-n01' })
    expect((await site.inject({ url: '/api/v1/pods', query: ON_N01 })).json().items).toEqual([])
    await site.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n01/state', payload: { status_name: 'Deployed' } })
    const after = (await site.inject({ url: '/api/v1/pods', query: ON_N01 })).json()
    expect(after.items.map((p: { metadata: { labels: { app: string } } }) => p.metadata.labels.app).sort()).toEqual(['calico-node', 'deckhand-api', 'keystone-api'])
    expect(podKeys(after).some((key) => before.includes(key))).toBe(false)
  })

  it('a node reaching Deployed gets its pods; one that is not deployed has none', async () => {
    const site = await appWithNodes()
    const on = async () => (await site.inject({ url: '/api/v1/pods', query: { fieldSelector: 'spec.nodeName=rack1-n02' } })).json().items
    expect(await on()).toEqual([])
    await site.inject({ method: 'PUT', url: '/_stub/nodes/rack1-n02/state', payload: { status_name: 'Deployed', power_state: 'on' } })
    expect(await on()).toHaveLength(3)
  })
})

describe('pods behind auth and faults', () => {
  it('needs a token when SITE_AUTH_TOKENS is set', async () => {
    const site = await app({ SITE_AUTH_TOKENS: 'secret' })
    const denied = await site.inject({ url: '/api/v1/pods' })
    expect(denied.statusCode).toBe(401)
    expect(denied.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 })
    expect((await site.inject({ url: '/api/v1/pods', headers: { authorization: 'Bearer secret' } })).statusCode).toBe(200)
  })

  it('plays the error fault', async () => {
    const site = await app({ SITE_FAULT: 'error', SITE_FAULT_STATUS: '503' })
    const faulted = await site.inject({ method: 'POST', url: '/api/v1/namespaces/ucp/pods/x/eviction', headers: { 'x-auth-token': 'secret' }, payload: eviction('x', 'ucp') })
    expect(faulted.statusCode).toBe(503)
    expect(faulted.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: 503 })
  })

  it('answers 405 with Allow for a method a pod path does not take', async () => {
    const site = await appWithNodes()
    const res = await site.inject({ method: 'PUT', url: '/api/v1/namespaces/ucp/pods/x', payload: {} })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, DELETE')
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 })
  })
})
