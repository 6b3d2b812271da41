// charts/slipway rendered by the pinned helm, no cluster needed: `helm lint`, `helm template` with the default values
// and with the HA PostgreSQL values (ci/ha-postgres-values.yaml) — the objects made, their settings read back by the
// services' own configuration loaders, the pods' security, probes and volumes — and the values refused: by the
// schema (values.schema.json) and by the template's own check (two orchestrators on the embedded SQLite).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig as loadBootstrapConfig } from '@slipway/bootstrap'
import { loadConfig as loadOrchestratorConfig } from '@slipway/orchestrator'
import { loadPeersConfig } from '@slipway/steps'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { parseTokenFile } from '../../../common/src/auth/static.ts'
import { createHelm, type Helm } from '../../src/helm.ts'
import { CHART_DIR, find, HA_VALUES, HELM, manifestObjects, onHelm, type KubeObject } from '../helpers/chart.ts'

interface Container {
  name: string
  command: string[]
  securityContext: Record<string, unknown>
  envFrom: Array<{ configMapRef?: { name: string }, secretRef?: { name: string } }>
  env?: Array<{ name: string, valueFrom: { secretKeyRef: { name: string, key: string } } }>
  startupProbe: { httpGet: { path: string, port: string, scheme: string } }
  livenessProbe: { httpGet: { path: string, port: string, scheme: string } }
  readinessProbe: { httpGet: { path: string, port: string, scheme: string } }
  volumeMounts: Array<{ name: string, mountPath: string, readOnly?: boolean }>
  resources: { requests?: Record<string, string>, limits?: Record<string, string> }
}
interface Deployment extends KubeObject {
  spec: {
    replicas: number
    strategy: { type: string }
    template: {
      spec: {
        serviceAccountName: string
        automountServiceAccountToken: boolean
        securityContext: Record<string, unknown>
        containers: Container[]
        volumes: Array<{ name: string, emptyDir?: object, persistentVolumeClaim?: { claimName: string }, secret?: { secretName: string } }>
      }
    }
  }
}

const RELEASE = 'site'
const NAME = 'site-slipway'

onHelm('the chart rendered', { kube: false }, () => {
  let helm: Helm
  let dir: string
  const values = (name: string, text: string): string => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  const template = async (...args: string[]) => await helm.run(['template', RELEASE, CHART_DIR, '--namespace', 'ucp', ...args])
  const render = async (...args: string[]): Promise<KubeObject[]> => {
    const run = await template(...args)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    return manifestObjects(run.stdout)
  }
  const data = (objects: KubeObject[], kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> => {
    const o = find(objects, kind, name) as KubeObject & { data?: Record<string, string>, stringData?: Record<string, string> }
    return (kind === 'ConfigMap' ? o.data : o.stringData) ?? {}
  }
  const container = (objects: KubeObject[], component: string): Container => {
    const c = (find(objects, 'Deployment', `${NAME}-${component}`) as Deployment).spec.template.spec.containers[0]
    if (c === undefined) throw new Error(`no container in ${component}`)
    return c
  }

  beforeAll(() => {
    helm = createHelm(HELM)
    dir = mkdtempSync(join(tmpdir(), 'slipway-chart-'))
  })
  afterAll(() => {
    helm?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('passes helm lint --strict with the default values and with the HA PostgreSQL values', async () => {
    for (const args of [[], ['--values', HA_VALUES]]) {
      const lint = await helm.run(['lint', '--strict', CHART_DIR, ...args])
      expect(lint.stdout + lint.stderr).not.toMatch(/\[(WARNING|ERROR)\]/)
      expect(lint.stdout).toContain('1 chart(s) linted, 0 chart(s) failed')
      expect(lint.code).toBe(0)
    }
  })

  describe('with the default values', () => {
    let objects: KubeObject[]
    beforeAll(async () => { objects = await render() })

    it('makes each service\'s Deployment, Service, settings, secrets, account and budget, the steps\' account and rights', () => {
      const names = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()
      expect(names).toEqual([
        'ClusterRole/ucp-site-slipway-bootstrap', 'ClusterRole/ucp-site-slipway-steps',
        'ClusterRoleBinding/ucp-site-slipway-bootstrap', 'ClusterRoleBinding/ucp-site-slipway-steps',
        `ConfigMap/${NAME}-bootstrap`, `ConfigMap/${NAME}-orchestrator`, `ConfigMap/${NAME}-steps`,
        `Deployment/${NAME}-bootstrap`, `Deployment/${NAME}-orchestrator`,
        `PersistentVolumeClaim/${NAME}-orchestrator`,
        `PodDisruptionBudget/${NAME}-bootstrap`, `PodDisruptionBudget/${NAME}-orchestrator`,
        `Role/${NAME}-steps-status`, `RoleBinding/${NAME}-steps-status`,
        `Secret/${NAME}-bootstrap`, `Secret/${NAME}-orchestrator`, `Secret/${NAME}-steps`,
        `Service/${NAME}-bootstrap`, `Service/${NAME}-orchestrator`,
        `ServiceAccount/${NAME}-bootstrap`, `ServiceAccount/${NAME}-orchestrator`, `ServiceAccount/${NAME}-steps`
      ])
      for (const o of objects) expect(o.metadata.labels).toMatchObject({ 'app.kubernetes.io/instance': RELEASE, 'app.kubernetes.io/managed-by': 'Helm' })
    })

    it('gives each service settings its own configuration loader accepts, by their exact names', () => {
      const orchestrator = loadOrchestratorConfig({ ...data(objects, 'ConfigMap', `${NAME}-orchestrator`), ...data(objects, 'Secret', `${NAME}-orchestrator`) })
      expect(orchestrator).toMatchObject({
        HOST: '0.0.0.0',
        PORT: 9000,
        ORCHESTRATOR_DATA_DIR: '/data',
        DATABASE_URL: '',
        STORE_URL: 'http://deckhand-int.ucp.svc.cluster.local:9000/api/v1.0',
        VALIDATORS: `Promenade=http://${NAME}-bootstrap.ucp.svc:9001/api/v1.0/validatedesign`
      })
      const bootstrap = loadBootstrapConfig({ ...data(objects, 'ConfigMap', `${NAME}-bootstrap`), ...data(objects, 'Secret', `${NAME}-bootstrap`) })
      expect(bootstrap).toMatchObject({ HOST: '0.0.0.0', PORT: 9001, KUBE_API_URL: '', KUBECONFIG: '' })
      const steps = loadPeersConfig(data(objects, 'ConfigMap', `${NAME}-steps`))
      expect(steps).toMatchObject({
        PROMENADE_URL: `http://${NAME}-bootstrap.ucp.svc:9001/api/v1.0`,
        SHIPYARD_URL: `http://${NAME}-orchestrator.ucp.svc:9000/api/v1.0`,
        DEPLOYMENT_STATUS_NAMESPACE: 'ucp',
        DEPLOYMENT_STATUS_CONFIGMAP: 'deployment-status'
      })
    })

    it('runs each service non-root on a read-only root with no privilege, an emptyDir /tmp, probes on its health URL', () => {
      for (const component of ['orchestrator', 'bootstrap']) {
        const deployment = find(objects, 'Deployment', `${NAME}-${component}`) as Deployment
        const pod = deployment.spec.template.spec
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } })
        const c = container(objects, component)
        expect(c.command).toEqual(['node', '--optimize-for-size', `packages/${component}/src/server.ts`])
        expect(c.securityContext).toMatchObject({
          runAsNonRoot: true, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] }
        })
        for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) {
          expect(probe.httpGet).toEqual({ path: '/api/v1.0/health', port: 'api', scheme: 'HTTP' })
        }
        expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' })
        expect(pod.volumes.find((v) => v.name === 'tmp')?.emptyDir).toBeDefined()
        expect(c.resources.requests).toBeDefined()
        expect(c.resources.limits?.memory).toBeDefined()
        expect(pod.serviceAccountName).toBe(`${NAME}-${component}`)
        expect(pod.automountServiceAccountToken).toBe(component === 'bootstrap')
      }
      const orchestrator = find(objects, 'Deployment', `${NAME}-orchestrator`) as Deployment
      expect(orchestrator.spec.replicas).toBe(1)
      expect(orchestrator.spec.strategy.type).toBe('Recreate')
      expect(orchestrator.spec.template.spec.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: `${NAME}-orchestrator` } })
      expect(container(objects, 'orchestrator').env).toBeUndefined()
    })
  })

  describe('with the HA PostgreSQL values', () => {
    let objects: KubeObject[]
    beforeAll(async () => { objects = await render('--values', HA_VALUES) })

    it('runs two orchestrators on PostgreSQL from a Secret, with no claim and a rolling update', () => {
      const orchestrator = find(objects, 'Deployment', `${NAME}-orchestrator`) as Deployment
      expect(orchestrator.spec.replicas).toBe(2)
      expect(orchestrator.spec.strategy.type).toBe('RollingUpdate')
      expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim')).toEqual([])
      expect(container(objects, 'orchestrator').env).toEqual([
        { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: `${NAME}-postgresql`, key: 'DATABASE_URL' } } }
      ])
      const url = data(objects, 'Secret', `${NAME}-postgresql`).DATABASE_URL
      const settings = loadOrchestratorConfig({
        ...data(objects, 'ConfigMap', `${NAME}-orchestrator`), ...data(objects, 'Secret', `${NAME}-orchestrator`), DATABASE_URL: url
      })
      expect(settings).toMatchObject({
        DATABASE_URL: 'postgres://slipway:change-me@postgresql.ucp.svc.cluster.local:5432/slipway',
        AUTH_PROVIDER: 'keystone',
        KEYSTONE_USERNAME: 'shipyard',
        KEYSTONE_PASSWORD: 'change-me-keystone-password',
        ENGINE_WATCH_INTERVAL_MS: 2000,
        VALIDATORS: `Promenade=https://${NAME}-bootstrap.ucp.svc:9001/api/v1.0/validatedesign`
      })
      expect(find(objects, 'PodDisruptionBudget', `${NAME}-orchestrator`)).toMatchObject({ spec: { minAvailable: 1 } })
    })

    it('serves HTTPS from the TLS Secret mounted read-only, trusts the CA bundle, and probes over HTTPS', () => {
      for (const component of ['orchestrator', 'bootstrap']) {
        const settings = data(objects, 'ConfigMap', `${NAME}-${component}`)
        expect(settings).toMatchObject({
          TLS_CERT_FILE: '/etc/slipway/tls/tls.crt', TLS_KEY_FILE: '/etc/slipway/tls/tls.key', TLS_CA_FILE: '/etc/slipway/tls-ca/ca.crt'
        })
        const c = container(objects, component)
        expect(c.volumeMounts).toContainEqual({ name: 'tls', mountPath: '/etc/slipway/tls', readOnly: true })
        expect(c.volumeMounts).toContainEqual({ name: 'tls-ca', mountPath: '/etc/slipway/tls-ca', readOnly: true })
        for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) expect(probe.httpGet.scheme).toBe('HTTPS')
        const pod = (find(objects, 'Deployment', `${NAME}-${component}`) as Deployment).spec.template.spec
        expect(pod.volumes.find((v) => v.name === 'tls')?.secret?.secretName).toBe('slipway-tls')
        expect(pod.volumes.find((v) => v.name === 'tls-ca')?.secret?.secretName).toBe('slipway-ca')
      }
    })

    it('leaves the steps\' peers blanked in the values to the Keystone catalog, and makes the NetworkPolicies', () => {
      const steps = data(objects, 'ConfigMap', `${NAME}-steps`)
      expect(Object.keys(steps)).not.toContain('DECKHAND_URL')
      expect(loadPeersConfig({ ...steps, ...data(objects, 'Secret', `${NAME}-steps`) })).toMatchObject({
        DECKHAND_URL: '', KEYSTONE_AUTH_URL: 'http://keystone-api.ucp.svc.cluster.local:80/v3', SHIPYARD_URL: `https://${NAME}-orchestrator.ucp.svc:9000/api/v1.0`
      })
      expect(objects.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.metadata.name).sort())
        .toEqual([`${NAME}-bootstrap`, `${NAME}-orchestrator`])
    })
  })

  it('takes existing Secrets by name: the settings, the database URL and the token file; the chart makes none of them', async () => {
    const objects = await render(
      '--set', 'orchestrator.replicas=2', '--set', 'orchestrator.existingSecret=site-orchestrator-settings',
      '--set', 'orchestrator.postgresql.existingSecret=site-database', '--set', 'orchestrator.postgresql.existingSecretKey=url',
      '--set', 'bootstrap.existingSecret=site-bootstrap-settings', '--set', 'steps.existingSecret=site-steps-settings',
      '--set', 'auth.existingTokensSecret=site-tokens'
    )
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([])
    const orchestrator = container(objects, 'orchestrator')
    expect(orchestrator.envFrom).toContainEqual({ secretRef: { name: 'site-orchestrator-settings' } })
    expect(orchestrator.env).toEqual([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'site-database', key: 'url' } } }])
    expect(container(objects, 'bootstrap').envFrom).toContainEqual({ secretRef: { name: 'site-bootstrap-settings' } })
    for (const component of ['orchestrator', 'bootstrap']) {
      expect(data(objects, 'ConfigMap', `${NAME}-${component}`).AUTH_TOKENS_FILE).toBe('/etc/slipway/auth/tokens.yaml')
      expect(container(objects, component).volumeMounts).toContainEqual({ name: 'tokens', mountPath: '/etc/slipway/auth', readOnly: true })
      const pod = (find(objects, 'Deployment', `${NAME}-${component}`) as Deployment).spec.template.spec
      expect(pod.volumes.find((v) => v.name === 'tokens')?.secret?.secretName).toBe('site-tokens')
    }
    // PostgreSQL: no claim for SQLite
    expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim')).toEqual([])
  })

  it('writes auth.tokens as the token file both services read, and auth.policy as their policy file', async () => {
    const objects = await render('--set', 'auth.tokens.t0ken.user=admin', '--set', 'auth.tokens.t0ken.roles={admin}',
      '--set', 'auth.policy.workflow_orchestrator:list_actions=role:reader')
    // read as the services read it
    const tokens = parseTokenFile(data(objects, 'Secret', `${NAME}-tokens`)['tokens.yaml'] ?? '')
    expect([...tokens.keys()]).toEqual(['t0ken'])
    expect(tokens.get('t0ken')).toMatchObject({ userName: 'admin', roles: ['admin'] })
    const policy = find(objects, 'ConfigMap', `${NAME}-policy`) as KubeObject & { data: Record<string, string> }
    expect(parse(policy.data['policy.yaml'] ?? '')).toEqual({ 'workflow_orchestrator:list_actions': 'role:reader' })
    for (const component of ['orchestrator', 'bootstrap']) {
      expect(data(objects, 'ConfigMap', `${NAME}-${component}`)).toMatchObject({
        AUTH_TOKENS_FILE: '/etc/slipway/auth/tokens.yaml', POLICY_FILE: '/etc/slipway/policy/policy.yaml'
      })
    }
  })

  it('binds the steps\' rights to an account of the engine\'s own namespace when one is named, and makes none', async () => {
    const objects = await render('--set', 'steps.serviceAccount.create=false', '--set', 'steps.serviceAccount.name=airflow-worker',
      '--set', 'steps.serviceAccount.namespace=airflow')
    expect(objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata.name).sort()).toEqual([`${NAME}-bootstrap`, `${NAME}-orchestrator`])
    for (const [kind, name] of [['ClusterRoleBinding', 'ucp-site-slipway-steps'], ['RoleBinding', `${NAME}-steps-status`]] as const) {
      expect(find(objects, kind, name)).toMatchObject({ subjects: [{ kind: 'ServiceAccount', name: 'airflow-worker', namespace: 'airflow' }] })
    }
  })

  describe('values refused', () => {
    it('refuses two orchestrators on the embedded SQLite, saying why and what to set', async () => {
      const run = await template('--set', 'orchestrator.replicas=2')
      expect(run.code).not.toBe(0)
      expect(run.stderr).toContain('orchestrator.replicas is 2, but no PostgreSQL is set: the embedded SQLite database serves one replica only')
      expect(run.stderr).toContain('orchestrator.postgresql.url')
      expect(run.stdout).toBe('')
    })

    it('refuses by the schema a misspelt setting, a wrong type, a value out of its choices and a setting the chart owns', async () => {
      const file = values('invalid.yaml', [
        'orchestrator:',
        '  replicas: two',
        '  config:',
        '    STORE_ULR: http://deckhand:9000/api/v1.0',
        '    DATABASE_URL: postgres://in/the/configmap',
        'config:',
        '  LOG_LEVEL: loud',
        'bootstrap:',
        '  config:',
        '    STORE_URL: deckhand:9000',
        ''
      ].join('\n'))
      const run = await template('--values', file)
      expect(run.code).not.toBe(0)
      expect(run.stdout).toBe('')
      expect(run.stderr).toContain('values don\'t meet the specifications of the schema(s)')
      for (const said of [
        'at \'/orchestrator/replicas\': got string, want integer',
        'at \'/config/LOG_LEVEL\': value must be one of \'fatal\', \'error\', \'warn\', \'info\', \'debug\', \'trace\', \'silent\'',
        'at \'/bootstrap/config/STORE_URL\': \'deckhand:9000\' does not match pattern \'^https?://\''
      ]) expect(run.stderr).toContain(said)
      // both names in one line, in either order
      expect(run.stderr).toMatch(/at '\/orchestrator\/config': additional properties ('STORE_ULR', 'DATABASE_URL'|'DATABASE_URL', 'STORE_ULR') not allowed/)
    })

    it('refuses a secret setting in a ConfigMap\'s map and TLS without its Secret', async () => {
      const secretInConfig = await template('--set', 'orchestrator.config.ENGINE_PASSWORD=visible')
      expect(secretInConfig.code).not.toBe(0)
      expect(secretInConfig.stderr).toContain('at \'/orchestrator/config\': additional properties \'ENGINE_PASSWORD\' not allowed')
      const tls = await template('--set', 'tls.enabled=true')
      expect(tls.code).not.toBe(0)
      expect(tls.stderr).toContain('tls.enabled is true but tls.secretName is empty')
    })
  })
})
