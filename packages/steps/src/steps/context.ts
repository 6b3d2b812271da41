// What every step works with: its call and log, the context its peer calls forward, each peer's client (or a
// warning that it is not configured), the design reference, and the deployment configuration the run read.
import type { CallContext } from '@slipway/common'
import { armadaClient, type ArmadaClient } from '../clients/armada.ts'
import { deckhandClient, type DeckhandClient } from '../clients/deckhand.ts'
import { designPeer, type DesignPeer } from '../clients/design.ts'
import { drydockClient, type DrydockClient } from '../clients/drydock.ts'
import type { KubernetesClient } from '../clients/kubernetes.ts'
import { callContext, designRefOf, revisionOf } from '../domain/conf.ts'
import {
  DEPLOYMENT_CONFIGURATION_NAME, DEPLOYMENT_CONFIGURATION_SCHEMA, handedConfiguration, readConfiguration, type DeploymentConfiguration
} from '../domain/deployment-configuration.ts'
import type { PeerName, Peers } from '../peers.ts'
import { StepFailure, type StepCall, type StepIo, type StepResult } from '../types.ts'

/** Everything the steps need from outside: the peers, the cluster, and where the deployment status goes. */
export interface StepLibraryDeps {
  peers: Peers
  kubernetes: KubernetesClient | null
  deploymentStatus: { configmap: string, namespace: string }
}

export interface StepContext {
  call: StepCall
  io: StepIo
  ctx: CallContext
  deps: StepLibraryDeps
  deckhand: () => Promise<DeckhandClient | null>
  drydock: () => Promise<DrydockClient | null>
  armada: () => Promise<ArmadaClient | null>
  promenade: () => Promise<DesignPeer | null>
  /** The design reference the peers are given. */
  designRef: () => Promise<string>
  revision: () => number
  /** The run's deployment configuration: as deployment_configuration handed it on, else read again. */
  configuration: () => Promise<DeploymentConfiguration>
  /** Says a peer is not configured and that this part of the work is skipped. */
  skipped: (peer: PeerName | 'kubernetes', what: string) => Promise<void>
}

export type Step = (ctx: StepContext) => Promise<StepResult | undefined>

/** The task id deployment_configuration runs as, whose output the later steps read. */
export const CONFIGURATION_TASK = 'deployment_configuration'

export async function readDeploymentConfiguration (deckhand: DeckhandClient, revision: number, ctx: CallContext,
  note: (line: string) => void): Promise<DeploymentConfiguration> {
  const documents = await deckhand.renderedDocuments(revision, ctx, {
    schema: DEPLOYMENT_CONFIGURATION_SCHEMA, 'metadata.name': DEPLOYMENT_CONFIGURATION_NAME
  })
  const data = (documents[0] as { data?: unknown } | undefined)?.data
  if (documents.length !== 1 || typeof data !== 'object' || data === null || Object.keys(data).length === 0) {
    throw new StepFailure(`A valid deployment-configuration is required: revision ${revision} has ${documents.length} ${DEPLOYMENT_CONFIGURATION_SCHEMA} document(s) named ${DEPLOYMENT_CONFIGURATION_NAME}${documents.length === 1 ? ', with no data' : ''}`)
  }
  return readConfiguration(data, note)
}

export function stepContext (call: StepCall, io: StepIo, deps: StepLibraryDeps): StepContext {
  const ctx = callContext(call)
  type Http = NonNullable<Awaited<ReturnType<Peers['client']>>>
  const typed = <T>(peer: PeerName, make: (http: Http) => T) => async (): Promise<T | null> => {
    const http = await deps.peers.client(peer)
    return http === null ? null : make(http)
  }
  const deckhand = typed('deckhand', deckhandClient)
  let configuration: DeploymentConfiguration | undefined
  const self: StepContext = {
    call,
    io,
    ctx,
    deps,
    deckhand,
    drydock: typed('drydock', drydockClient),
    armada: typed('armada', armadaClient),
    promenade: typed('promenade', designPeer),
    async designRef () {
      // the Deckhand URL as the peers reach it: the one the steps use
      return designRefOf(call, await deps.peers.url('deckhand'))
    },
    revision: () => revisionOf(call),
    async configuration () {
      configuration ??= handedConfiguration(call.xcom[CONFIGURATION_TASK])
      if (configuration !== undefined) return configuration
      const client = await deckhand()
      if (client === null) {
        throw new StepFailure('The deployment configuration was not handed on by deployment_configuration and no Deckhand is configured to read it from')
      }
      io.log('The deployment configuration was not handed on by deployment_configuration: reading it from Deckhand', 'warning')
      configuration = await readDeploymentConfiguration(client, revisionOf(call), ctx, () => {})
      return configuration
    },
    async skipped (peer, what) {
      const where = peer === 'kubernetes' ? 'not configured (KUBE_API_URL empty, not in a cluster)' : await deps.peers.describe(peer)
      io.log(`No ${peer}: ${where}; skipped ${what}`, 'warning')
    }
  }
  return self
}
