// PUT /v1.0/node-labels/{node} of the bootstrap service against a real kube-apiserver, configured as a user would
// configure it (a kubeconfig for the bootstrap identity, whose RBAC role allows only get and patch on nodes): every
// row of the label rule's table, invalid labels, an unknown node, the cluster refusing the service's credentials or
// its rights, an unreachable or unconfigured cluster, and a write racing another writer's.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort } from '@slipway/common/ports'
import { LABELS_UPDATED } from '../../../bootstrap/src/routes/node-labels.ts'
import { startKubernetes, type Kubernetes } from '../../src/kubernetes.ts'
import { bootstrapApp, bootstrapProcess, CALLER_TOKEN, putLabels, READER_TOKEN, type BootstrapApp, type BootstrapService } from '../helpers/bootstrap.ts'
import { onRealKubernetes } from '../helpers/real.ts'

interface NodeView { labels: Record<string, string>, resourceVersion: string }

onRealKubernetes('the bootstrap service\'s node labels', () => {
  let kube: Kubernetes
  let service: BootstrapService
  let app: BootstrapApp
  let count = 0

  beforeAll(async () => {
    kube = await startKubernetes()
    console.log(`kube-apiserver ready at ${kube.server} in ${kube.startMs} ms`)
    service = await bootstrapApp({ KUBECONFIG: kube.kubeconfig('bootstrap') })
    app = service.app
  })
  afterAll(async () => {
    await service?.close()
    await kube?.close()
  })

  /** A fresh node with these labels, so each case starts from what it says. */
  async function node (labels: Record<string, string> = {}): Promise<string> {
    const name = `node-${++count}`
    await kube.createNode({ name, labels })
    return name
  }
  async function read (name: string): Promise<NodeView> {
    const answer = await kube.api.call('GET', `/api/v1/nodes/${name}`, { token: kube.identities.admin.token })
    expect(answer.status).toBe(200)
    const metadata = (answer.json as { metadata: { labels?: Record<string, string>, resourceVersion: string } }).metadata
    return { labels: metadata.labels ?? {}, resourceVersion: metadata.resourceVersion }
  }

  // the label rule's table: current labels, the requested set, the labels after
  it.each([
    ['changes one, removes one, adds one', { a: '1', b: '2', c: '3' }, { a: '1', c: '4', d: '99' }, { a: '1', c: '4', d: '99' }],
    ['adds to a node without labels', {}, { a: '1', b: '2', c: '3' }, { a: '1', b: '2', c: '3' }],
    ['removes every label for an empty set', { a: '1', b: '2', c: '3' }, {}, {}],
    ['keeps labels whose key holds kubernetes.io', { a: '1', b: '2', 'kubernetes.io/hostname': 'h' }, { a: '99' }, { a: '99', 'kubernetes.io/hostname': 'h' }],
    ['keeps node-role and topology labels, removes k8s.io ones', { 'node-role.kubernetes.io/worker': '', 'topology.kubernetes.io/zone': 'z1', 'k8s.io/x': 'y' }, { e: '' },
      { 'node-role.kubernetes.io/worker': '', 'topology.kubernetes.io/zone': 'z1', e: '' }],
    ['deletes a key sent as null, ignores null for a missing key', { a: '1', b: '2' }, { a: null, b: '2', z: null }, { b: '2' }],
    ['takes prefixed keys and empty values', {}, { 'slipway.io/rack': 'r-01', 'example.com/flag': '' }, { 'slipway.io/rack': 'r-01', 'example.com/flag': '' }]
  ])('%s: 200 and the node carries the requested set', async (_what, current, requested, after) => {
    const name = await node(current)
    const answer = await putLabels(app, name, requested)
    expect(answer).toEqual({ status: 200, body: LABELS_UPDATED })
    expect((await read(name)).labels).toEqual(after)
  })

  it.each([
    ['the same set again', { a: '1', b: '2', c: '3' }, { a: '1', b: '2', c: '3' }],
    ['an empty set on a node without labels', {}, {}]
  ])('%s: 200 and no write at all (the resourceVersion stays)', async (_what, current, requested) => {
    const name = await node(current)
    const before = await read(name)
    expect(await putLabels(app, name, requested)).toEqual({ status: 200, body: LABELS_UPDATED })
    expect(await read(name)).toEqual(before)
  })

  it.each([
    ['a key with a space', { 'bad key': 'x' }, 'bad key'],
    ['a key with two slashes', { 'a/b/c': 'x' }, 'a/b/c'],
    ['an upper-case prefix', { 'Example.com/a': 'x' }, 'Example.com/a'],
    ['a value starting with a dash', { a: '-x' }, '-x'],
    ['a value of 64 characters', { a: 'v'.repeat(64) }, 'v'.repeat(64)]
  ])('%s: 400 naming it, nothing written, and the API server refuses it too', async (_what, labels, named) => {
    const name = await node({ a: '1' })
    const before = await read(name)
    const answer = await putLabels(app, name, labels)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ status: 'Failure', code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
    expect(String(answer.body.reason)).toContain(named)
    expect(await read(name)).toEqual(before)
    // the same label written straight to the API server by its admin: 422 Invalid, naming the same text
    const direct = await kube.api.call('PATCH', `/api/v1/nodes/${name}`, {
      token: kube.identities.admin.token, body: { metadata: { labels } }, contentType: 'application/merge-patch+json'
    })
    expect(direct.status).toBe(422)
    expect(direct.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 })
    expect((direct.json as { message: string }).message).toContain(named)
    expect(await read(name)).toEqual(before)
  })

  it('a label the site\'s own admission policy refuses (its 422): 400 InvalidFormatError carrying the API server\'s reason', async () => {
    const admin = kube.identities.admin.token
    const rule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['nodes'] }
    const policy = await kube.api.call('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
      token: admin,
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'slipway-no-quarantine' },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: { resourceRules: [rule] },
          validations: [{ expression: "!has(object.metadata.labels) || !('slipway.io/quarantine' in object.metadata.labels)", message: 'this site keeps quarantine off its nodes' }]
        }
      }
    })
    expect(policy.status).toBe(201)
    const binding = await kube.api.call('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
      token: admin,
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'slipway-no-quarantine' },
        spec: { policyName: 'slipway-no-quarantine', validationActions: ['Deny'] }
      }
    })
    expect(binding.status).toBe(201)
    const name = await node({ a: '1' })
    // the policy is in force once the API server has seen it: until then a write would pass
    const probe = await node({})
    await expect.poll(async () => (await kube.api.call('PATCH', `/api/v1/nodes/${probe}`, {
      token: admin, body: { metadata: { labels: { 'slipway.io/quarantine': 'probe' } } }, contentType: 'application/merge-patch+json'
    })).status, { timeout: 30_000, interval: 200 }).toBe(422)
    try {
      const answer = await putLabels(app, name, { a: '1', 'slipway.io/quarantine': 'yes' })
      expect(answer.status).toBe(400)
      expect(answer.body).toMatchObject({ status: 'Failure', message: 'Invalid Input Error', code: '400 Bad Request', details: { errorType: 'InvalidFormatError' } })
      expect(String(answer.body.reason)).toMatch(/^the cluster refused the labels of node node-\d+: .*this site keeps quarantine off its nodes/)
      expect((await read(name)).labels).toEqual({ a: '1' })
    } finally {
      for (const kind of ['validatingadmissionpolicybindings', 'validatingadmissionpolicies']) {
        await kube.api.call('DELETE', `/apis/admissionregistration.k8s.io/v1/${kind}/slipway-no-quarantine`, { token: admin })
      }
    }
  })

  it('a caller without a token (401) or whose role may not label nodes (403): refused, the node untouched', async () => {
    const name = await node({ a: '1' })
    const before = await read(name)
    const anonymous = await putLabels(app, name, { a: '2' }, null)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ status: 'Failure', message: 'Unauthenticated', code: '401 Unauthorized', details: { errorType: 'ApiError' } })
    const reader = await putLabels(app, name, { a: '2' }, READER_TOKEN)
    expect(reader.status).toBe(403)
    expect(reader.body).toMatchObject({ status: 'Failure', message: 'Forbidden', code: '403 Forbidden', details: { errorType: 'ApiError' } })
    expect(await read(name)).toEqual(before)
  })

  it('an unknown node: 404 NodeNotFoundException', async () => {
    const answer = await putLabels(app, 'no-such-node', { a: '1' })
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ status: 'Failure', message: 'Node not found', code: '404 Not Found', details: { errorType: 'NodeNotFoundException' } })
  })

  it('credentials the cluster refuses (its 401): 503 KubernetesApiError naming the 401', async () => {
    const name = await node({ a: '1' })
    const kubeconfig = kube.kubeconfig('bootstrap', { file: 'kubeconfig-unknown-token.yaml', token: 'not-a-known-token' })
    const refused = await bootstrapApp({ KUBECONFIG: kubeconfig })
    try {
      const answer = await putLabels(refused.app, name, { a: '2' })
      expect(answer.status).toBe(503)
      expect(answer.body).toMatchObject({ status: 'Failure', code: '503 Service Unavailable', details: { errorType: 'KubernetesApiError' } })
      expect(String(answer.body.reason)).toMatch(/answered 401/)
    } finally { await refused.close() }
    expect((await read(name)).labels).toEqual({ a: '1' })
  })

  it('an identity RBAC gives no rights on nodes (its 403): 503 KubernetesApiError naming the 403', async () => {
    const name = await node({ a: '1' })
    const forbidden = await bootstrapApp({ KUBECONFIG: kube.kubeconfig('nobody') })
    try {
      const answer = await putLabels(forbidden.app, name, { a: '2' })
      expect(answer.status).toBe(503)
      expect(answer.body).toMatchObject({ status: 'Failure', code: '503 Service Unavailable', details: { errorType: 'KubernetesApiError' } })
      expect(String(answer.body.reason)).toMatch(/answered 403.*forbidden/)
    } finally { await forbidden.close() }
    expect((await read(name)).labels).toEqual({ a: '1' })
  })

  it('the bootstrap identity may get and patch nodes and nothing more', async () => {
    const token = kube.identities.bootstrap.token
    expect((await kube.api.call('GET', '/api/v1/nodes', { token })).status).toBe(403)
    expect((await kube.api.call('DELETE', '/api/v1/nodes/node-1', { token })).status).toBe(403)
    expect((await kube.api.call('GET', '/api/v1/namespaces/default/secrets', { token })).status).toBe(403)
  })

  it('an API server nobody listens at: 503 KubernetesApiError', async () => {
    const closed = await bootstrapApp({ KUBE_API_URL: `https://127.0.0.1:${await freePort('127.0.0.1')}`, KUBE_TOKEN: 'x' })
    try {
      const answer = await putLabels(closed.app, 'node-1', { a: '2' })
      expect(answer.status).toBe(503)
      expect(answer.body).toMatchObject({ status: 'Failure', message: 'Kubernetes API Error', details: { errorType: 'KubernetesApiError' } })
    } finally { await closed.close() }
  })

  it('a kubeconfig that is not there: 502 KubernetesConfigException', async () => {
    const missing = await bootstrapApp({ KUBECONFIG: '/nonexistent/slipway/kubeconfig.yaml' })
    try {
      const answer = await putLabels(missing.app, 'node-1', { a: '2' })
      expect(answer.status).toBe(502)
      expect(answer.body).toMatchObject({ status: 'Failure', message: 'Kubernetes Config Error', details: { errorType: 'KubernetesConfigException' } })
    } finally { await missing.close() }
  })

  it('started as its own process with KUBE_API_URL and KUBE_TOKEN (the CA from NODE_EXTRA_CA_CERTS): 200', async () => {
    const name = await node({ a: '1' })
    const running = await bootstrapProcess({
      KUBE_API_URL: kube.server, KUBE_TOKEN: kube.identities.bootstrap.token, NODE_EXTRA_CA_CERTS: kube.caFile
    })
    try {
      const res = await fetch(`${running.url}/node-labels/${name}`, {
        method: 'PUT',
        headers: { 'x-auth-token': CALLER_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ a: '2', b: '3' })
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(LABELS_UPDATED)
    } finally { await running.close() }
    expect((await read(name)).labels).toEqual({ a: '2', b: '3' })
  })

  it('another writer between its read and its patch: no conflict (no precondition), each key written last wins', async () => {
    const name = await node({ a: '1', b: '2', keep: 'x' })
    const racing = await bootstrapApp({ KUBECONFIG: kube.kubeconfig('bootstrap') })
    const getNode = racing.deps.kubernetes.getNode
    let stale: string | undefined
    // the other writer changes the node right after the service has read it, before its patch
    racing.deps.kubernetes.getNode = async (nodeName) => {
      const read = await getNode(nodeName)
      stale = (read.metadata as { resourceVersion?: string } | undefined)?.resourceVersion
      const other = await kube.api.call('PATCH', `/api/v1/nodes/${nodeName}`, {
        token: kube.identities.admin.token, body: { metadata: { labels: { a: 'other', c: 'other' } } }, contentType: 'application/merge-patch+json'
      })
      expect(other.status).toBe(200)
      return read
    }
    try {
      // requested {a: 5, keep: x}: the service read {a: 1, b: 2, keep: x} and patches {a: 5, b: null}
      expect(await putLabels(racing.app, name, { a: '5', keep: 'x' })).toEqual({ status: 200, body: LABELS_UPDATED })
    } finally { await racing.close() }
    // the other writer's c survives: the service never saw it, so never removed it
    expect((await read(name)).labels).toEqual({ a: '5', keep: 'x', c: 'other' })
    // a writer that does send the resourceVersion it read is refused once the node has moved on: 409 Conflict
    expect(stale).toBeDefined()
    const conflict = await kube.api.call('PATCH', `/api/v1/nodes/${name}`, {
      token: kube.identities.admin.token, body: { metadata: { resourceVersion: stale, labels: { a: 'late' } } }, contentType: 'application/merge-patch+json'
    })
    expect(conflict.status).toBe(409)
    expect(conflict.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, details: { name, kind: 'nodes' } })
    expect((await read(name)).labels.a).toBe('5')
  })
})
