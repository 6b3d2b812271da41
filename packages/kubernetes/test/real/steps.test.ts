// @slipway/steps' Kubernetes calls against a real kube-apiserver: its client alone (cordon, pods by node, evictions
// taken, refused by a disruption budget and of a pod that is gone, a ConfigMap created and updated, an unknown
// namespace, a node's delete), then the steps that use it, built as the step library builds itself from KUBE_API_URL
// and KUBE_TOKEN, run as a least-privilege service account: deployment_status's ConfigMap, and destroy_nodes
// cordoning, draining and removing a node (Drydock and Promenade not configured), and a drain that times out.
import { DownstreamError } from '@slipway/common'
import { loadPeersConfig, type StepLibrary } from '@slipway/steps'
import { Agent } from 'undici'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { kubernetesClient, kubernetesHttp, type KubernetesClient } from '../../../steps/src/clients/kubernetes.ts'
import { startKubernetes, type Kubernetes } from '../../src/kubernetes.ts'
import { onRealKubernetes } from '../helpers/real.ts'
import { kubeOnlyLibrary, runStep as run, stepCall } from '../helpers/step-calls.ts'
import { createPod, kubeletFor, must, podExists, prepareCluster, stepsServiceAccount } from '../helpers/steps.ts'

/** What the server says when a budget refuses an eviction (policy/v1 Eviction's 429). */
const BUDGET_REFUSAL = 'Cannot evict pod as it would violate the pod\'s disruption budget.'

onRealKubernetes('the step library\'s Kubernetes calls', () => {
  let kube: Kubernetes
  let agent: Agent
  let client: KubernetesClient
  let stepsToken: string

  const library = (token: string, env: Record<string, string> = {}): StepLibrary => kubeOnlyLibrary(kube.server, token, agent, env)
  async function node (name: string): Promise<{ spec?: { unschedulable?: boolean } } | null> {
    const answer = await kube.api.call('GET', `/api/v1/nodes/${name}`, { token: kube.identities.admin.token })
    return answer.status === 404 ? null : answer.json as { spec?: { unschedulable?: boolean } }
  }

  beforeAll(async () => {
    kube = await startKubernetes()
    console.log(`kube-apiserver ready at ${kube.server} in ${kube.startMs} ms`)
    agent = new Agent({ connect: { ca: kube.ca } })
    const http = kubernetesHttp(loadPeersConfig({ KUBE_API_URL: kube.server, KUBE_TOKEN: kube.identities.admin.token }), agent)
    client = kubernetesClient(http!)
    await prepareCluster(kube)
    stepsToken = await stepsServiceAccount(kube, 'slipway-steps')
  })
  afterAll(async () => {
    await agent?.close()
    await kube?.close()
  })

  it('the client: cordons a node, lists its pods, evicts them (taken, refused by a budget, gone), deletes the node', async () => {
    await kube.createNode({ name: 'c1', ready: true })
    await kube.createNode({ name: 'c2', ready: true })
    await createPod(kube, { namespace: 'ucp', name: 'c1-api', node: 'c1' })
    await createPod(kube, { namespace: 'ucp', name: 'c1-guarded', node: 'c1', guarded: true })
    await createPod(kube, { namespace: 'kube-system', name: 'c1-calico', node: 'c1', daemonSet: true })
    await createPod(kube, { namespace: 'ucp', name: 'c2-api', node: 'c2' })

    const cordoned = await client.patchNode('c1', { spec: { unschedulable: true } })
    expect(cordoned.spec?.unschedulable).toBe(true)
    expect((await client.getNode('c1'))?.spec?.unschedulable).toBe(true)
    expect((await node('c2'))?.spec?.unschedulable).toBeUndefined()
    expect(await client.getNode('no-such-node')).toBeNull()

    const names = (pods: Awaited<ReturnType<KubernetesClient['podsOnNode']>>): string[] =>
      pods.map((p) => `${p.metadata.namespace ?? ''}/${p.metadata.name}`).sort()
    expect(names(await client.podsOnNode('c1'))).toEqual(['kube-system/c1-calico', 'ucp/c1-api', 'ucp/c1-guarded'])
    const calico = (await client.podsOnNode('c1')).find((p) => p.metadata.name === 'c1-calico')
    expect(calico?.metadata.ownerReferences?.[0]?.kind).toBe('DaemonSet')

    // grace 0: the server deletes the pod at once (no kubelet to wait for)
    expect(await client.evict('ucp', 'c1-api', 0)).toEqual({ outcome: 'evicted' })
    expect(await podExists(kube, 'ucp', 'c1-api')).toBe(false)
    expect(names(await client.podsOnNode('c1'))).toEqual(['kube-system/c1-calico', 'ucp/c1-guarded'])

    const refused = await client.evict('ucp', 'c1-guarded', 0)
    expect(refused).toEqual({ outcome: 'refused', reason: expect.stringContaining(BUDGET_REFUSAL) as unknown })
    expect(await podExists(kube, 'ucp', 'c1-guarded')).toBe(true)

    expect(await client.evict('ucp', 'no-such-pod', 0)).toEqual({ outcome: 'gone' })
    expect(await client.evict('no-such-namespace', 'no-such-pod', 0)).toEqual({ outcome: 'gone' })

    expect(await client.deleteNode('c1')).toBe(true)
    expect(await client.getNode('c1')).toBeNull()
    expect(await client.deleteNode('c1')).toBe(false)
    // the pods stay: no controller here removes the pods of a deleted node
    expect(names(await client.podsOnNode('c1'))).toEqual(['kube-system/c1-calico', 'ucp/c1-guarded'])
    expect(names(await client.podsOnNode('c2'))).toEqual(['ucp/c2-api'])
  })

  it('the client: writes a ConfigMap (created, then updated, read back); an unknown namespace is a DownstreamError', async () => {
    expect(await client.getConfigMap('ucp', 'client-status')).toBeNull()
    expect(await client.writeConfigMap('ucp', 'client-status', { release: 'one' })).toBe('created')
    expect((await client.getConfigMap('ucp', 'client-status'))?.data).toEqual({ release: 'one' })
    expect(await client.writeConfigMap('ucp', 'client-status', { release: 'two', extra: 'x' })).toBe('updated')
    const read = await client.getConfigMap('ucp', 'client-status')
    expect(read?.data).toEqual({ release: 'two', extra: 'x' })
    expect(read?.metadata.namespace).toBe('ucp')
    // a merge patch: keys not written stay
    expect(await client.writeConfigMap('ucp', 'client-status', { release: 'three' })).toBe('updated')
    expect((await client.getConfigMap('ucp', 'client-status'))?.data).toEqual({ release: 'three', extra: 'x' })

    const error = await client.writeConfigMap('no-such-namespace', 'client-status', { release: 'x' }).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(DownstreamError)
    expect((error as DownstreamError).upstreamStatus).toBe(404)
    expect((error as DownstreamError).reason).toBe(
      'Kubernetes answered POST /api/v1/namespaces/no-such-namespace/configmaps with 404: namespaces "no-such-namespace" not found')
  })

  it.each([
    ['the steps\' least-privilege service account', (): string => stepsToken],
    ['the admin', (): string => kube.identities.admin.token]
  ])('deployment_status as %s: the ConfigMap of the settings holds the release with status completed', async (who, token) => {
    const name = who === 'the admin' ? 'admin-status' : 'steps-status'
    const steps = library(token(), { DEPLOYMENT_STATUS_CONFIGMAP: name, DEPLOYMENT_STATUS_NAMESPACE: 'ucp' })
    const running = await run(steps, 'deployment_status', stepCall('deploy_site', 'deployment_status', {}))
    expect(running.error).toBeUndefined()
    expect(running.io.lines).toContain(`info ConfigMap ucp/${name} created: status running, results pending`)

    const final = await run(steps, 'deployment_status', { ...stepCall('deploy_site', 'final_deployment_status', {}), taskStates: { verify_site: 'success' } })
    expect(final.error).toBeUndefined()
    expect(final.io.lines).toContain(`info ConfigMap ucp/${name} updated: status completed, results successful`)
    const map = await must(kube, 'GET', `/api/v1/namespaces/ucp/configmaps/${name}`) as { data: Record<string, string> }
    expect(Object.keys(map.data)).toEqual(['release'])
    expect((parse(map.data.release ?? '') as { deployment: unknown }).deployment).toMatchObject({
      status: 'completed',
      results: 'successful',
      action: '01REALKUBE',
      'context-marker': 'marker-real',
      user: 'operator',
      document_url: 'deckhand+http://deckhand.invalid/api/v1.0/revisions/1/rendered-documents'
    })
  })

  it('deployment_status as an identity without rights fails naming the 403 and the server\'s message', async () => {
    const { error } = await run(library(kube.identities.nobody.token), 'deployment_status', stepCall('deploy_site', 'final_deployment_status', {}))
    expect(error?.message).toMatch(/^DownstreamError: Downstream failure: kubernetes \(Kubernetes answered PATCH \/api\/v1\/namespaces\/ucp\/configmaps\/deployment-status with 403: configmaps "deployment-status" is forbidden: User "slipway-nobody" cannot patch resource "configmaps"/)
  })

  it('destroy_nodes (redeploy_server) as the service account: cordons, evicts all but the DaemonSet pod, waits for them to go, deletes the node', async () => {
    await kube.createNode({ name: 'd1', ready: true })
    await kube.createNode({ name: 'd2', ready: true })
    await createPod(kube, { namespace: 'ucp', name: 'd1-api', node: 'd1' })
    await createPod(kube, { namespace: 'ucp', name: 'd1-db', node: 'd1' })
    await createPod(kube, { namespace: 'kube-system', name: 'd1-calico', node: 'd1', daemonSet: true })
    await createPod(kube, { namespace: 'ucp', name: 'd2-api', node: 'd2' })
    // Running pods evicted with a grace period of 3 s, as a site would drain (the eviction API only marks a bound
    // running pod terminating). No kubelet runs here, so without one they would stay terminating for ever and the
    // drain would time out; the stand-in finishes each terminating pod's delete as the kubelet does once its
    // containers stop. So the drain is held to the real protocol: it must wait until the pods are really gone, not
    // take the eviction's 201 for their end, and the grace period it sends must reach the pod.
    const kubelet = kubeletFor(kube, 'd1')
    let outcome: Awaited<ReturnType<typeof run>>
    try {
      outcome = await run(library(stepsToken), 'destroy_nodes', stepCall('redeploy_server', 'destroy_nodes', { target_nodes: 'd1' }, {
        'kubernetes_provisioner.drain_grace_period': 3, 'kubernetes_provisioner.drain_timeout': 60
      }))
    } finally {
      await kubelet.stop()
    }
    const { error, io } = outcome
    expect(error).toBeUndefined()
    expect(kubelet.finished.map((f) => f.pod).sort()).toEqual(['ucp/d1-api', 'ucp/d1-db'])
    for (const finished of kubelet.finished) expect(finished).toMatchObject({ grace: 3, nodeUnschedulable: true })

    expect(io.lines.slice(0, 3)).toEqual([
      'info Node d1 cordoned',
      'info Draining d1: 2 pod(s) to evict (ucp/d1-api, ucp/d1-db), grace period 3 s',
      'info Evicted ucp/d1-api'
    ])
    expect(io.lines).toContain('info Evicted ucp/d1-db')
    expect(io.lines).toContain('info Node d1 drained')
    expect(io.lines.some((l) => /^warning No promenade: .*; skipped clearing the labels of d1$/.test(l))).toBe(true)
    expect(io.lines.some((l) => /^warning No drydock: .*; skipped Drydock's destroy_nodes$/.test(l))).toBe(true)
    expect(io.lines.at(-1)).toBe('info Node d1 decommissioned: removed from the cluster')

    expect(await node('d1')).toBeNull()
    expect(await podExists(kube, 'ucp', 'd1-api')).toBe(false)
    expect(await podExists(kube, 'ucp', 'd1-db')).toBe(false)
    expect(await podExists(kube, 'kube-system', 'd1-calico')).toBe(true)
    expect(await podExists(kube, 'ucp', 'd2-api')).toBe(true)
    expect((await node('d2'))?.spec?.unschedulable).toBeUndefined()
  })

  it('destroy_nodes fails when the drain times out, naming the pod a budget keeps; the node stays, cordoned', async () => {
    await kube.createNode({ name: 't1', ready: true })
    await createPod(kube, { namespace: 'ucp', name: 't1-guarded', node: 't1', guarded: true })
    const { error, io } = await run(library(stepsToken), 'destroy_nodes', stepCall('redeploy_server', 'destroy_nodes', { target_nodes: 't1' }, {
      'kubernetes_provisioner.drain_grace_period': 0, 'kubernetes_provisioner.drain_timeout': 2
    }))
    expect(error?.message).toBe('Draining t1 timed out after 2 s; pods still there: ucp/t1-guarded')
    expect(io.lines).toContainEqual(expect.stringMatching(
      new RegExp(`^warning Eviction of ucp/t1-guarded refused for now: ${BUDGET_REFUSAL.replace(/[.']/g, '\\$&')}`)))
    expect((await node('t1'))?.spec?.unschedulable).toBe(true)
    expect(await podExists(kube, 'ucp', 't1-guarded')).toBe(true)
  })
})
