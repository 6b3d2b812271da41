// The step library built from configuration: the peers (plain URLs or the Keystone catalog), the cluster, and where
// the deployment status goes. stub-engine and the step runner each build one.
import type { Dispatcher } from 'undici'
import { kubernetesClient, kubernetesHttp } from './clients/kubernetes.ts'
import type { PeersConfig } from './config.ts'
import { createPeers } from './peers.ts'
import { runStep } from './run.ts'
import type { StepLibraryDeps } from './steps/context.ts'
import type { StepCall, StepIo, StepKind, StepResult } from './types.ts'

export interface StepLibrary {
  run: (kind: StepKind, call: StepCall, io: StepIo) => Promise<StepResult>
}

export function createStepLibrary (config: PeersConfig, options: { dispatcher?: Dispatcher } = {}): StepLibrary {
  const kube = kubernetesHttp(config, options.dispatcher)
  const deps: StepLibraryDeps = {
    peers: createPeers(config, options),
    kubernetes: kube === null ? null : kubernetesClient(kube),
    deploymentStatus: { configmap: config.DEPLOYMENT_STATUS_CONFIGMAP, namespace: config.DEPLOYMENT_STATUS_NAMESPACE }
  }
  return { run: async (kind, call, io) => await runStep(kind, call, io, deps) }
}
