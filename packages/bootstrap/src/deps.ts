// The one place the bootstrap service's clients and rules are wired from configuration.
import { authenticatorFromConfig, ConfigError, createMetrics, policyFromConfig, serviceTokenFromConfig } from '@slipway/common'
import type { Config } from './config.ts'
import { createDesignFetcher } from './clients/design.ts'
import { createFileSources } from './clients/file-sources.ts'
import { createGpgEncryptor } from './clients/gpg.ts'
import { createKubernetesClient, resolveConnection } from './clients/kubernetes.ts'
import { POLICY_DEFAULTS } from './policy.ts'
import { createDesignHosts, DesignHostsError, type DesignHosts } from './domain/design-hosts.ts'

/** The design hosts, or a start-up error naming the variable at fault. */
function designHostsOf (config: Config): DesignHosts {
  try {
    return createDesignHosts(config.DESIGN_HOSTS, config.STORE_URL)
  } catch (error) {
    if (error instanceof DesignHostsError) throw new ConfigError([`${config.DESIGN_HOSTS === '' ? 'STORE_URL' : 'DESIGN_HOSTS'}: ${error.message}`])
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

export function createDeps (config: Config) {
  const metrics = config.METRICS_ENABLED ? createMetrics('bootstrap') : undefined
  const designHosts = designHostsOf(config)
  // the process's one service token: the authenticator (Keystone) and the design fetcher share its login
  const serviceToken = serviceTokenFromConfig(config)
  return {
    metrics,
    authenticator: authenticatorFromConfig(config, { serviceToken }),
    policy: policyFromConfig(config, POLICY_DEFAULTS),
    fetchDesign: createDesignFetcher({
      timeoutMs: config.DESIGN_TIMEOUT_MS,
      maxBytes: config.DESIGN_MAX_BYTES,
      limits: { maxDocuments: config.DESIGN_MAX_DOCUMENTS, maxTokens: config.DESIGN_MAX_TOKENS },
      serviceAuth: serviceToken,
      designHosts,
      metrics
    }),
    encryptPayload: createGpgEncryptor({ passphrase: config.ENCRYPTION_KEY }),
    fetchFiles: createFileSources({
      timeoutMs: config.FILE_TIMEOUT_MS,
      attempts: config.FILE_FETCH_ATTEMPTS,
      retryDelayMs: config.FILE_RETRY_DELAY_MS,
      maxBytes: config.FILE_MAX_BYTES,
      cacheTtlMs: config.FILE_CACHE_TTL_MS,
      cacheMaxBytes: config.FILE_CACHE_MAX_BYTES,
      hosts: fileHostsOf(config, designHosts)
    }),
    kubernetes: createKubernetesClient({
      timeoutMs: config.KUBE_TIMEOUT_MS,
      metrics,
      connect: () => resolveConnection({
        apiUrl: config.KUBE_API_URL,
        token: config.KUBE_TOKEN,
        kubeconfig: config.KUBECONFIG,
        inCluster: { host: config.KUBERNETES_SERVICE_HOST, port: config.KUBERNETES_SERVICE_PORT }
      })
    }),
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    jsonMaxDepth: config.JSON_MAX_DEPTH,
    logLevel: config.LOG_LEVEL
  }
}

export type Deps = ReturnType<typeof createDeps>
