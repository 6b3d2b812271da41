// A site of fake peers and the steps' deps built over them as the step library builds its own (createPeers over the
// settings, the Kubernetes client over KUBE_API_URL), with a call, a recording io and a fast deployment configuration.
import { kubernetesClient, kubernetesHttp } from '../../src/clients/kubernetes.ts'
import { loadPeersConfig, type PeersConfig } from '../../src/config.ts'
import { CONFIGURATION_DEFAULTS, type DeploymentConfiguration } from '../../src/domain/deployment-configuration.ts'
import { createPeers } from '../../src/peers.ts'
import { runStep } from '../../src/run.ts'
import type { StepLibraryDeps } from '../../src/steps/context.ts'
import type { LogLevel, StepCall, StepIo, StepKind, StepResult } from '../../src/types.ts'
import {
  fakeArmada, fakeDeckhand, fakeDrydock, fakePromenade, fakeShipyard,
  type ArmadaFake, type DeckhandFake, type DrydockFake, type Fake, type PromenadeFake
} from './fake-peers.ts'
import { fakeKubernetes, type KubernetesFake } from './fake-kubernetes.ts'

export const REVISION = 3

export interface Site {
  deckhand: DeckhandFake
  drydock: DrydockFake
  armada: ArmadaFake
  promenade: PromenadeFake
  shipyard: Fake
  kubernetes: KubernetesFake
  config: PeersConfig
  deps: StepLibraryDeps
}

/** Every peer faked and configured by plain URL; `env` overrides or adds settings. */
export async function startSite (options: { nodes?: string[], env?: Record<string, string> } = {}): Promise<Site> {
  const [deckhand, drydock, armada, promenade, shipyard, kubernetes] = await Promise.all([
    fakeDeckhand(), fakeDrydock(), fakeArmada(), fakePromenade(), fakeShipyard(), fakeKubernetes(options.nodes)
  ])
  const config = loadPeersConfig({
    DECKHAND_URL: deckhand.url,
    DRYDOCK_URL: drydock.url,
    ARMADA_URL: armada.url,
    PROMENADE_URL: promenade.url,
    SHIPYARD_URL: shipyard.url,
    KUBE_API_URL: kubernetes.url,
    KUBE_TOKEN: 'kube-token',
    SERVICE_TOKEN: 'service-token',
    STEP_HTTP_TIMEOUT_MS: '10000',
    ...options.env
  })
  return { deckhand, drydock, armada, promenade, shipyard, kubernetes, config, deps: depsOf(config) }
}

export function depsOf (config: PeersConfig): StepLibraryDeps {
  const kube = kubernetesHttp(config)
  return {
    peers: createPeers(config),
    kubernetes: kube === null ? null : kubernetesClient(kube),
    deploymentStatus: { configmap: config.DEPLOYMENT_STATUS_CONFIGMAP, namespace: config.DEPLOYMENT_STATUS_NAMESPACE }
  }
}

/** Upstream's defaults with every wait a fraction of a second, as deployment_configuration would hand them on. */
export function fastConfiguration (overrides: Partial<DeploymentConfiguration> = {}): DeploymentConfiguration {
  const fast: DeploymentConfiguration = { ...CONFIGURATION_DEFAULTS }
  for (const key of Object.keys(fast) as Array<keyof DeploymentConfiguration>) {
    if (key.endsWith('_interval') || key.endsWith('join_wait')) (fast as Record<string, unknown>)[key] = 0.05
  }
  return { ...fast, ...overrides }
}

export function stepCall (overrides: Partial<StepCall> & { parameters?: Record<string, unknown> } = {}): StepCall {
  const { parameters, ...rest } = overrides
  return {
    dagId: 'deploy_site',
    taskId: 'task',
    runId: 'manual__1',
    tryNumber: 1,
    conf: {
      action: {
        id: '01ACTION', name: 'deploy_site', user: 'operator', context_marker: 'marker-1', committed_rev_id: REVISION, parameters: parameters ?? {}
      }
    },
    taskStates: {},
    xcom: { deployment_configuration: fastConfiguration() },
    ...rest
  }
}

export interface RecordingIo extends StepIo {
  lines: Array<{ event: string, level: LogLevel }>
  /** The log as text, one line per event: `level event`. */
  text: () => string
  stop: () => void
}

export function recordingIo (): RecordingIo {
  const controller = new AbortController()
  const lines: RecordingIo['lines'] = []
  return {
    lines,
    log: (event, level = 'info') => { lines.push({ event, level }) },
    signal: controller.signal,
    text: () => lines.map((l) => `${l.level} ${l.event}`).join('\n'),
    stop: () => { controller.abort() }
  }
}

/** Runs one step as an engine would; its io comes back with the result or the failure. */
export async function run (kind: StepKind, call: StepCall, deps: StepLibraryDeps, io = recordingIo()): Promise<{
  io: RecordingIo, result?: StepResult, error?: Error
}> {
  try {
    return { io, result: await runStep(kind, call, io, deps) }
  } catch (error) {
    return { io, error: error as Error }
  }
}

/** The site's deployment-configuration document, and a deployment strategy document. */
export const configurationDocument = (data: Record<string, unknown>): Record<string, unknown> => ({
  schema: 'shipyard/DeploymentConfiguration/v1', metadata: { schema: 'metadata/Document/v1', name: 'deployment-configuration' }, data
})
export const strategyDocument = (name: string, groups: unknown[]): Record<string, unknown> => ({
  schema: 'shipyard/DeploymentStrategy/v1', metadata: { schema: 'metadata/Document/v1', name }, data: { groups }
})
