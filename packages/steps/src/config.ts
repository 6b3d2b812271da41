// Where the steps' peers are and how the steps authenticate to them: plain URLs, or the Keystone catalog read with
// the service's own token (upstream Shipyard's way). The same variables configure stub-engine, which runs the steps
// in its own process, and the step runner, which runs them for the Airflow DAG files.
import { readConfig } from '@slipway/common'
import { Type, type Static } from 'typebox'

const url = (peer: string, role: string, example: string): ReturnType<typeof Type.String> => Type.String({
  default: '',
  description: `${peer} API base URL (${role}; e.g. ${example}); empty: from the Keystone catalog when KEYSTONE_AUTH_URL is set, else none; \`none\`: none even with a catalog. Without it the steps skip ${peer}'s part of the work, saying so in the task log`
})

export const PeersConfigSchema = Type.Object({
  DECKHAND_URL: url('Deckhand', 'the document store', 'http://127.0.0.1:9100/api/v1.0'),
  DRYDOCK_URL: url('Drydock', 'the bare-metal provisioner', 'http://127.0.0.1:9300/api/v1.0'),
  ARMADA_URL: url('Armada', 'the Helm release manager', 'http://127.0.0.1:9300/armada/api/v1.0'),
  PROMENADE_URL: url('Promenade', 'the bootstrap service', 'http://127.0.0.1:9001/api/v1.0'),
  SHIPYARD_URL: url('Shipyard', 'the orchestrator, whose health the preflight checks', 'http://127.0.0.1:9000/api/v1.0'),
  KUBE_API_URL: Type.String({
    default: '',
    description: 'Kubernetes API server URL (e.g. https://10.96.0.1:443); empty: the pod\'s service account when running in a cluster, else no Kubernetes (its steps log a warning and skip that work)'
  }),
  KUBE_TOKEN: Type.String({
    default: '',
    description: 'Bearer token for KUBE_API_URL (empty: the service account\'s token file when in a cluster)'
  }),
  SERVICE_TOKEN: Type.String({
    default: '',
    description: 'X-Auth-Token sent to Deckhand, Drydock, Armada, Promenade and Shipyard when no Keystone is configured'
  }),
  KEYSTONE_AUTH_URL: Type.String({
    default: '',
    description: 'Keystone v3 URL: the steps take a token for the service user and read the peers\' endpoints from its catalog'
  }),
  KEYSTONE_USERNAME: Type.String({ default: '', description: 'Keystone: the service user' }),
  KEYSTONE_PASSWORD: Type.String({ default: '', description: 'Keystone: the service user\'s password' }),
  KEYSTONE_PROJECT_NAME: Type.String({ default: 'service', description: 'Keystone: the project the token is scoped to' }),
  KEYSTONE_USER_DOMAIN_NAME: Type.String({ default: 'Default', description: 'Keystone: domain of the service user' }),
  KEYSTONE_PROJECT_DOMAIN_NAME: Type.String({ default: 'Default', description: 'Keystone: domain of the project' }),
  KEYSTONE_INTERFACE: Type.String({
    default: 'internal',
    description: 'Keystone: which endpoint interface of the catalog to use (internal, admin or public)'
  }),
  KEYSTONE_REGION: Type.String({ default: '', description: 'Keystone: the catalog region to use (empty: any)' }),
  STEP_HTTP_TIMEOUT_MS: Type.Integer({
    default: 60_000,
    minimum: 1,
    description: 'Timeout of each call a step makes to a peer (a Drydock task is polled, never held on one call)'
  }),
  DEPLOYMENT_STATUS_CONFIGMAP: Type.String({
    default: 'deployment-status',
    description: 'Name of the ConfigMap deployment_status writes (the DeploymentConfiguration\'s deployment_status.configmap wins)'
  }),
  DEPLOYMENT_STATUS_NAMESPACE: Type.String({
    default: 'ucp',
    description: 'Namespace of that ConfigMap (the DeploymentConfiguration\'s deployment_status.namespace wins)'
  })
})
export type PeersConfig = Static<typeof PeersConfigSchema>

export const loadPeersConfig = (env: Record<string, string | undefined> = process.env): PeersConfig => readConfig(PeersConfigSchema, env)

/** Whether any peer is configured at all: a URL (other than `none`), a Keystone, or a Kubernetes API. */
export function anyPeerConfigured (config: PeersConfig): boolean {
  const urls = [config.DECKHAND_URL, config.DRYDOCK_URL, config.ARMADA_URL, config.PROMENADE_URL, config.SHIPYARD_URL, config.KUBE_API_URL]
  return urls.some((u) => u !== '' && u !== 'none') || config.KEYSTONE_AUTH_URL !== '' || process.env.KUBERNETES_SERVICE_HOST !== undefined
}
