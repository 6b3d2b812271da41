// charts/slipway installed by the pinned helm into the real kube-apiserver: the objects the release names read back
// through the API; its pods admitted under the "restricted" Pod Security Standard; what each service account may do,
// asked of the server's RBAC authorizer with SubjectAccessReviews, and the workflows' steps run under the chart's own
// account; an upgrade refused by the schema, two upgrades (settings and a second bootstrap, then the HA PostgreSQL
// values), and an uninstall that leaves no object of the release.
// No controller-manager or kubelet runs here: the Deployments are stored, no ReplicaSet or pod comes of them.
import { Agent } from 'undici'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHelm, type Helm } from '../../src/helm.ts'
import { startKubernetes, type Kubernetes } from '../../src/kubernetes.ts'
import { CHART_DIR, HA_VALUES, HELM, manifestObjects, onHelm, type KubeObject } from '../helpers/chart.ts'
import { accountToken, allowed, labelled, read, waitAllowed, type Access } from '../helpers/release.ts'
import { kubeOnlyLibrary, runStep, stepCall } from '../helpers/step-calls.ts'
import { createPod, prepareCluster } from '../helpers/steps.ts'

const RELEASE = 'site'
const NS = 'ucp'
const NAME = 'site-slipway'
const SELECTOR = `app.kubernetes.io/instance=${RELEASE}`
const account = (component: string): { namespace: string, name: string } => ({ namespace: NS, name: `${NAME}-${component}` })

interface Deployment extends KubeObject {
  spec: {
    replicas: number
    template: { metadata: { annotations: Record<string, string> }, spec: { containers: Array<Record<string, unknown>> } }
  }
}

onHelm('the chart on a real API server', { kube: true }, () => {
  let kube: Kubernetes
  let helm: Helm
  let agent: Agent
  const run = async (...args: string[]) => await helm.run([...args, '--namespace', NS], { kubeconfig: kube.kubeconfig('admin') })
  const revision = async (): Promise<{ version: number, status: string }> => {
    const status = await run('status', RELEASE, '--output', 'json')
    expect(status.code).toBe(0)
    const info = JSON.parse(status.stdout) as { version: number, info: { status: string } }
    return { version: info.version, status: info.info.status }
  }
  /** Kind/namespace/name of each object of the release's current manifest. */
  const manifest = async (): Promise<KubeObject[]> => {
    const got = await run('get', 'manifest', RELEASE)
    expect(got.code).toBe(0)
    return manifestObjects(got.stdout)
  }
  const key = (o: KubeObject): string => `${o.kind}/${o.metadata.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.metadata.name}`
  const readBack = async (kind: string, name: string, namespace: string | undefined = NS): Promise<KubeObject> => {
    const o = await read(kube, kind, name, namespace)
    if (o === null) throw new Error(`${kind} ${name} is not in the API server`)
    return o
  }

  beforeAll(async () => {
    kube = await startKubernetes()
    console.log(`kube-apiserver ready at ${kube.server} in ${kube.startMs} ms`)
    helm = createHelm(HELM)
    agent = new Agent({ connect: { ca: kube.ca } })
    // the namespace, its default service account (pods are admitted with it) and a budget the steps' drain meets
    await prepareCluster(kube)
  })
  afterAll(async () => {
    helm?.close()
    await agent?.close()
    await kube?.close()
  })

  it('installs with the default values: every object of the release is in the API server as rendered, and no other', async () => {
    const install = await run('install', RELEASE, CHART_DIR)
    expect(install.stderr).toBe('')
    expect(install.code).toBe(0)
    expect(await revision()).toEqual({ version: 1, status: 'deployed' })

    const rendered = await manifest()
    expect(rendered).toHaveLength(22)
    expect(await labelled(kube, SELECTOR)).toEqual(rendered.map(key).sort())
    for (const o of rendered) {
      const stored = await readBack(o.kind, o.metadata.name, o.metadata.namespace)
      expect(stored.metadata.labels).toEqual(o.metadata.labels)
      if (o.kind === 'ConfigMap') expect(stored.data).toEqual(o.data)
      if (o.kind === 'Secret') {
        const decoded = Object.fromEntries(Object.entries((stored.data ?? {}) as Record<string, string>)
          .map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]))
        expect(decoded).toEqual(o.stringData ?? {})
      }
      if (o.kind === 'Deployment') {
        const mine = (o as Deployment).spec.template.spec.containers[0]
        const theirs = (stored as Deployment).spec.template.spec.containers[0]
        for (const field of ['securityContext', 'envFrom', 'volumeMounts', 'command']) expect(theirs?.[field]).toEqual(mine?.[field])
        expect(theirs?.livenessProbe).toMatchObject({ httpGet: { path: '/api/v1.0/health', port: 'api', scheme: 'HTTP' } })
      }
      if (o.kind.startsWith('Cluster') || o.kind.startsWith('Role')) expect(stored.rules ?? stored.roleRef).toEqual(o.rules ?? o.roleRef)
    }
    // no controller turns the Deployments into pods here
    const pods = await kube.api.call('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=${encodeURIComponent(SELECTOR)}`, { token: kube.identities.admin.token })
    expect((pods.json as { items: unknown[] }).items).toEqual([])
  })

  it('gives pods the "restricted" Pod Security Standard admits: each Deployment\'s pod template, and not without its securityContext', async () => {
    const token = kube.identities.admin.token
    const namespace = 'slipway-restricted'
    await kube.api.call('POST', '/api/v1/namespaces', {
      token, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } }
    })
    await kube.api.call('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { token, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } } })
    // a dry run: admitted (or refused) by every admission plugin, PodSecurity included, and not stored
    const admit = async (name: string, spec: Record<string, unknown>) => await kube.api.call('POST', `/api/v1/namespaces/${namespace}/pods?dryRun=All`, {
      token, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { ...spec, serviceAccountName: 'default' } }
    })
    for (const component of ['orchestrator', 'bootstrap']) {
      const spec = (await readBack('Deployment', `${NAME}-${component}`) as Deployment).spec.template.spec
      const admitted = await admit(component, spec)
      expect([component, admitted.status]).toEqual([component, 201])
      const bare = { ...spec, securityContext: {}, containers: spec.containers.map(({ securityContext, ...rest }) => rest) }
      const refused = await admit(`${component}-bare`, bare)
      expect(refused.status).toBe(403)
      expect((refused.json as { message: string }).message).toContain('violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false')
    }
  })

  it('lets the bootstrap service account get, list and patch nodes, and nothing else', async () => {
    await waitAllowed(kube, account('bootstrap'), { verb: 'patch', resource: 'nodes', name: 'n1' })
    const may: Access[] = [
      { verb: 'get', resource: 'nodes', name: 'n1' },
      { verb: 'list', resource: 'nodes' },
      { verb: 'patch', resource: 'nodes', name: 'n1' }
    ]
    const mayNot: Access[] = [
      { verb: 'delete', resource: 'nodes', name: 'n1' },
      { verb: 'update', resource: 'nodes', name: 'n1' },
      { verb: 'create', resource: 'nodes' },
      { verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' },
      { verb: 'get', resource: 'secrets', namespace: NS, name: `${NAME}-bootstrap` },
      { verb: 'list', resource: 'secrets' },
      { verb: 'get', resource: 'configmaps', namespace: NS, name: `${NAME}-bootstrap` },
      { verb: 'list', resource: 'pods' },
      { verb: 'create', resource: 'pods', subresource: 'eviction', namespace: NS, name: 'x' }
    ]
    for (const access of may) expect([access, await allowed(kube, account('bootstrap'), access)]).toEqual([access, true])
    for (const access of mayNot) expect([access, await allowed(kube, account('bootstrap'), access)]).toEqual([access, false])
  })

  it('lets the steps\' account make exactly the steps\' calls, and the orchestrator\'s none', async () => {
    await waitAllowed(kube, account('steps'), { verb: 'patch', resource: 'configmaps', namespace: NS, name: 'deployment-status' })
    const may: Access[] = [
      { verb: 'get', resource: 'nodes', name: 'n1' },
      { verb: 'patch', resource: 'nodes', name: 'n1' },
      { verb: 'delete', resource: 'nodes', name: 'n1' },
      { verb: 'list', resource: 'pods' },
      { verb: 'create', resource: 'pods', subresource: 'eviction', namespace: 'kube-system', name: 'x' },
      { verb: 'create', resource: 'configmaps', namespace: NS },
      { verb: 'patch', resource: 'configmaps', namespace: NS, name: 'deployment-status' }
    ]
    const mayNot: Access[] = [
      { verb: 'list', resource: 'nodes' },
      { verb: 'update', resource: 'nodes', name: 'n1' },
      { verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' },
      { verb: 'get', resource: 'secrets', namespace: NS, name: `${NAME}-steps` },
      { verb: 'create', resource: 'pods', namespace: NS },
      { verb: 'delete', resource: 'pods', namespace: NS, name: 'x' },
      { verb: 'get', resource: 'configmaps', namespace: NS, name: 'deployment-status' },
      { verb: 'patch', resource: 'configmaps', namespace: NS, name: `${NAME}-orchestrator` },
      { verb: 'create', resource: 'configmaps', namespace: 'kube-system' }
    ]
    for (const access of may) expect([access, await allowed(kube, account('steps'), access)]).toEqual([access, true])
    for (const access of mayNot) expect([access, await allowed(kube, account('steps'), access)]).toEqual([access, false])
    for (const access of [...may, ...mayNot]) expect([access, await allowed(kube, account('orchestrator'), access)]).toEqual([access, false])
  })

  it('runs the steps under the chart\'s account: deployment_status writes its ConfigMap, destroy_nodes drains and removes a node', async () => {
    const token = await accountToken(kube, NS, `${NAME}-steps`)
    // the settings the chart gives the engine's task processes, the API server in place of the pod's own
    const settings = (await readBack('ConfigMap', `${NAME}-steps`)).data as Record<string, string>
    const steps = kubeOnlyLibrary(kube.server, token, agent, {
      DEPLOYMENT_STATUS_CONFIGMAP: settings.DEPLOYMENT_STATUS_CONFIGMAP ?? '', DEPLOYMENT_STATUS_NAMESPACE: settings.DEPLOYMENT_STATUS_NAMESPACE ?? ''
    })
    const first = await runStep(steps, 'deployment_status', stepCall('deploy_site', 'deployment_status', {}))
    expect(first.error).toBeUndefined()
    expect(first.io.lines).toContain(`info ConfigMap ${NS}/deployment-status created: status running, results pending`)
    const last = await runStep(steps, 'deployment_status', { ...stepCall('deploy_site', 'final_deployment_status', {}), taskStates: { verify_site: 'success' } })
    expect(last.error).toBeUndefined()
    expect(last.io.lines).toContain(`info ConfigMap ${NS}/deployment-status updated: status completed, results successful`)

    await kube.createNode({ name: 'h1', ready: true })
    await createPod(kube, { namespace: NS, name: 'h1-api', node: 'h1' })
    // grace 0: the server deletes an evicted pod at once (no kubelet to wait for)
    const destroyed = await runStep(steps, 'destroy_nodes', stepCall('redeploy_server', 'destroy_nodes', { target_nodes: 'h1' }, {
      'kubernetes_provisioner.drain_grace_period': 0, 'kubernetes_provisioner.drain_timeout': 30
    }))
    expect(destroyed.error).toBeUndefined()
    expect(destroyed.io.lines).toContain('info Node h1 cordoned')
    expect(destroyed.io.lines).toContain('info Evicted ucp/h1-api')
    expect(destroyed.io.lines.at(-1)).toBe('info Node h1 decommissioned: removed from the cluster')
    expect((await kube.api.call('GET', '/api/v1/nodes/h1', { token: kube.identities.admin.token })).status).toBe(404)
  })

  it('refuses an upgrade with an invalid values file by the schema, naming the value; the release stays as it was', async () => {
    const before = await readBack('ConfigMap', `${NAME}-orchestrator`)
    const refused = await run('upgrade', RELEASE, CHART_DIR, '--set', 'orchestrator.config.STORE_TIMEOUT_MS=-5', '--set', 'bootstrap.replicas=many')
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('values don\'t meet the specifications of the schema(s)')
    expect(refused.stderr).toMatch(/at '\/orchestrator\/config\/STORE_TIMEOUT_MS': minimum: got -5, want 1/)
    expect(refused.stderr).toMatch(/at '\/bootstrap\/replicas': got string, want integer/)
    expect(await revision()).toEqual({ version: 1, status: 'deployed' })
    expect((await readBack('ConfigMap', `${NAME}-orchestrator`)).metadata).toMatchObject({ resourceVersion: before.metadata.resourceVersion })
  })

  it('upgrades: a setting changed rolls the pods, a second bootstrap, NetworkPolicies; then the HA values drop the claim', async () => {
    const before = await readBack('Deployment', `${NAME}-orchestrator`) as Deployment
    const upgrade = await run('upgrade', RELEASE, CHART_DIR, '--set', 'config.LOG_LEVEL=debug', '--set', 'bootstrap.replicas=2', '--set', 'networkPolicy.enabled=true')
    expect(upgrade.code).toBe(0)
    expect(await revision()).toEqual({ version: 2, status: 'deployed' })
    expect((await readBack('ConfigMap', `${NAME}-orchestrator`)).data).toMatchObject({ LOG_LEVEL: 'debug' })
    expect((await readBack('Deployment', `${NAME}-bootstrap`) as Deployment).spec.replicas).toBe(2)
    const after = await readBack('Deployment', `${NAME}-orchestrator`) as Deployment
    expect(after.spec.template.metadata.annotations['checksum/settings']).not.toBe(before.spec.template.metadata.annotations['checksum/settings'])
    for (const component of ['orchestrator', 'bootstrap']) await readBack('NetworkPolicy', `${NAME}-${component}`)
    expect(await labelled(kube, SELECTOR)).toEqual((await manifest()).map(key).sort())

    const ha = await run('upgrade', RELEASE, CHART_DIR, '--values', HA_VALUES)
    expect(ha.code).toBe(0)
    expect(await revision()).toEqual({ version: 3, status: 'deployed' })
    expect((await readBack('Deployment', `${NAME}-orchestrator`) as Deployment).spec.replicas).toBe(2)
    expect(await read(kube, 'PersistentVolumeClaim', `${NAME}-orchestrator`, NS)).toBeNull()
    await readBack('Secret', `${NAME}-postgresql`)
    expect(await labelled(kube, SELECTOR)).toEqual((await manifest()).map(key).sort())
  })

  it('uninstalls: no object of the release is left, namespaced or cluster-wide, nor helm\'s record of it', async () => {
    // helm keeps each revision in a Secret labelled owner=helm, name=<release>
    const records = async (): Promise<unknown[]> => {
      const path = `/api/v1/secrets?labelSelector=${encodeURIComponent(`owner=helm,name=${RELEASE}`)}`
      return ((await kube.api.call('GET', path, { token: kube.identities.admin.token })).json as { items: unknown[] }).items
    }
    expect(await labelled(kube, SELECTOR)).not.toEqual([])
    expect(await records()).toHaveLength(3)
    const uninstall = await run('uninstall', RELEASE)
    expect(uninstall.code).toBe(0)
    expect(await labelled(kube, SELECTOR)).toEqual([])
    expect(await records()).toEqual([])
    const list = await run('list', '--short', '--deployed', '--failed', '--pending', '--superseded', '--uninstalled', '--uninstalling')
    expect(list.code).toBe(0)
    expect(list.stdout).toBe('')
  })
})
