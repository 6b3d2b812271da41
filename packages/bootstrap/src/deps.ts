// The bootstrap service's one composition root: its service token, clients and use cases, built from configuration.
// The server, the tests and the benches all build their app from it; what a caller wants otherwise (a fake client, a
// test authenticator) it passes as an override, and the rest is built as usual.
import {
  authenticatorFromConfig, ConfigError, createMetrics, policyFromConfig, serviceTokenFromConfig,
  type Authenticator, type Policy, type ServiceTokenSource
} from '@slipway/common'
import type { Config } from './config.ts'
import { createDesignFetcher, type DesignFetcher } from './clients/design.ts'
import { createFileSources, type FileSources } from './clients/file-sources.ts'
import { createGpgEncryptor, type PayloadEncryptor } from './clients/gpg.ts'
import { createKubernetesClient, resolveConnection, type KubernetesClient } from './clients/kubernetes.ts'
import { POLICY_DEFAULTS } from './policy.ts'
import { createDesignHosts, DesignHostsError } from './domain/design-hosts.ts'
import { createDesignSource } from './domain/design-source.ts'
import { createJoinScripts } from './domain/join-scripts.ts'
import { createDesignValidation } from './domain/design-validation.ts'
import { createNodeLabels } from './domain/node-label-updates.ts'
import type { DesignHosts } from './types.ts'

/** What a caller puts in place of what the configuration would build; each one absent is built as usual. */
export interface DepsOverrides {
  /** The process's own token on outbound calls, also what a Keystone authenticator validates callers with. */
  serviceToken?: ServiceTokenSource
  authenticator?: Authenticator
  policy?: Policy
  fetchDesign?: DesignFetcher
  fetchFiles?: FileSources
  kubernetes?: KubernetesClient
  /** gpg for encrypted join scripts; default: the machine's gpg with ENCRYPTION_KEY, none without either. */
  encryptPayload?: PayloadEncryptor | undefined
}

/** The design hosts, or a start-up error naming the variable at fault. */
function designHostsOf (config: Config): DesignHosts {
  try {
    return createDesignHosts(config.DESIGN_HOSTS, config.STORE_URL)
  } catch (error) {
    if (error instanceof DesignHostsError) {
      throw new ConfigError([`${config.DESIGN_HOSTS === '' ? 'STORE_URL' : 'DESIGN_HOSTS'}: ${error.message}`])
    }
    throw error
  }
}

/** The hosts HostSystem files may come from: FILE_HOSTS, else the design hosts. */
function fileHostsOf (config: Config, designHosts: DesignHosts): DesignHosts {
  if (config.FILE_HOSTS.trim() === '') return designHosts
  try {
    return createDesignHosts(config.FILE_HOSTS, config.STORE_URL)
  } catch (error) {
    if (error instanceof DesignHostsError) throw new ConfigError([`FILE_HOSTS: ${error.message}`])
    throw error
  }
}

export function createDeps (config: Config, overrides: DepsOverrides = {}) {
  const metrics = config.METRICS_ENABLED ? createMetrics('bootstrap') : undefined
  const designHosts = designHostsOf(config)
  const fileHosts = fileHostsOf(config, designHosts)
  // the process's one service token: the authenticator (Keystone) and the design fetcher share its login
  const serviceToken = overrides.serviceToken ?? serviceTokenFromConfig(config)
  const kubernetes = overrides.kubernetes ?? createKubernetesClient({
    timeoutMs: config.KUBE_TIMEOUT_MS,
    metrics,
    connect: () => resolveConnection({
      apiUrl: config.KUBE_API_URL,
      token: config.KUBE_TOKEN,
      kubeconfig: config.KUBECONFIG,
      inCluster: { host: config.KUBERNETES_SERVICE_HOST, port: config.KUBERNETES_SERVICE_PORT }
    })
  })
  const design = createDesignSource({
    fetchDesign: overrides.fetchDesign ?? createDesignFetcher({
      timeoutMs: config.DESIGN_TIMEOUT_MS,
      maxBytes: config.DESIGN_MAX_BYTES,
      serviceAuth: serviceToken,
      designHosts,
      metrics
    }),
    limits: { maxDocuments: config.DESIGN_MAX_DOCUMENTS, maxTokens: config.DESIGN_MAX_TOKENS }
  })
  const fetchFiles = overrides.fetchFiles ?? createFileSources({
    timeoutMs: config.FILE_TIMEOUT_MS,
    attempts: config.FILE_FETCH_ATTEMPTS,
    retryDelayMs: config.FILE_RETRY_DELAY_MS,
    maxBytes: config.FILE_MAX_BYTES,
    cacheTtlMs: config.FILE_CACHE_TTL_MS,
    cacheMaxBytes: config.FILE_CACHE_MAX_BYTES,
    hosts: fileHosts
  })
  const encryptPayload = overrides.encryptPayload ?? createGpgEncryptor({ passphrase: config.ENCRYPTION_KEY })
  return {
    metrics,
    authenticator: overrides.authenticator ?? authenticatorFromConfig(config, { serviceToken }),
    policy: overrides.policy ?? policyFromConfig(config, POLICY_DEFAULTS),
    joinScripts: createJoinScripts({ kubernetes, design, fetchFiles, encryptPayload }),
    designValidation: createDesignValidation({ design }),
    nodeLabels: createNodeLabels({ kubernetes }),
    /** Closed with the app: a kubeconfig's TLS agent lives as long as it. */
    kubernetes,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    jsonMaxDepth: config.JSON_MAX_DEPTH,
    logLevel: config.LOG_LEVEL
  }
}

export type Deps = ReturnType<typeof createDeps>
