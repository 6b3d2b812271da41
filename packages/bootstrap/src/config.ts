// The bootstrap service's configuration: environment variables validated by one schema, read once by server.ts.
import { Type, type Static } from 'typebox'
import { AuthConfigProperties, JsonBodyConfigProperties, LogLevelSchema, readConfig, TlsConfigProperties } from '@slipway/common'

export const ConfigSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1', description: 'Address to listen on' }),
  PORT: Type.Integer({ default: 9001, minimum: 0, maximum: 65535, description: 'Port to listen on (0: any free port)' }),
  LOG_LEVEL: LogLevelSchema(),
  ...TlsConfigProperties,
  BODY_LIMIT_BYTES: Type.Integer({ default: 1_048_576, minimum: 1, description: 'Largest request body accepted' }),
  ...JsonBodyConfigProperties,
  METRICS_ENABLED: Type.Boolean({ default: true, description: 'Serve Prometheus metrics at GET /metrics (no token)' }),
  STORE_URL: Type.String({
    default: 'http://127.0.0.1:9100/api/v1.0',
    pattern: '^https?://',
    examples: ['http://store:9100/api/v1.0'],
    description: 'Deckhand API base URL: the store design references are read from; its host[:port] is the design host when DESIGN_HOSTS is empty'
  }),
  DESIGN_HOSTS: Type.String({
    default: '',
    description: 'Comma-separated host[:port] a design_ref or href may name (deckhand+ and plain http(s); no port: 80/443); any other host is refused with 400 before anything is sent, so the service\'s token goes nowhere else. Empty: the host of STORE_URL'
  }),
  DESIGN_TIMEOUT_MS: Type.Integer({ default: 300_000, minimum: 1, description: 'Timeout of a design_ref fetch' }),
  DESIGN_MAX_BYTES: Type.Integer({ default: 67_108_864, minimum: 1, description: 'Largest design accepted from design_ref' }),
  DESIGN_MAX_DOCUMENTS: Type.Integer({
    default: 20_000,
    minimum: 1,
    description: 'Most documents (empty ones included) read from one design; a design with more is refused with 400, at once when its document-start lines alone are too many'
  }),
  DESIGN_MAX_TOKENS: Type.Integer({
    default: 8_000_000,
    minimum: 1,
    description: 'Most YAML tokens (scalars, indicators, blanks, line breaks) read from one design, a bound on the work of reading it: a design needing more is refused with 400 when reading gets there. Site YAML takes 2.5 to 3.5 bytes a token, so the default admits about 20 MB of it'
  }),
  FILE_TIMEOUT_MS: Type.Integer({ default: 60_000, minimum: 1, description: 'Timeout of each fetch of a HostSystem url/tar_url file' }),
  FILE_FETCH_ATTEMPTS: Type.Integer({
    default: 3,
    minimum: 1,
    maximum: 10,
    description: 'Attempts per HostSystem url/tar_url file before the join answers 502'
  }),
  FILE_RETRY_DELAY_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    description: 'Back-off before the second attempt (linear: doubled before the third)'
  }),
  FILE_MAX_BYTES: Type.Integer({ default: 67_108_864, minimum: 1, description: 'Largest HostSystem url/tar_url file accepted' }),
  FILE_CACHE_TTL_MS: Type.Integer({
    default: 259_200_000,
    minimum: 0,
    description: 'How long fetched HostSystem files are reused (upstream: 72 h); 0: always fetch'
  }),
  FILE_CACHE_MAX_BYTES: Type.Integer({
    default: 268_435_456,
    minimum: 0,
    description: 'Most bytes of fetched HostSystem files kept for reuse; past it the least recently used go first, and a file larger than the whole bound is not kept; 0: nothing kept'
  }),
  FILE_HOSTS: Type.String({
    default: '',
    description: 'Comma-separated host[:port] a HostSystem url/tar_url may name (no port: 80/443); a design naming any other host is refused with 400 before any file is fetched. Empty: the design hosts (DESIGN_HOSTS, or the host of STORE_URL)'
  }),
  ENCRYPTION_KEY: Type.String({
    default: '',
    description: 'Passphrase for gpg-encrypted join scripts (upstream PROMENADE_ENCRYPTION_KEY); empty: a design asking for encryption gets 500'
  }),
  KUBE_API_URL: Type.String({ default: '', description: 'Kubernetes API URL (e.g. stub-site); else KUBECONFIG, else in-cluster' }),
  KUBE_TOKEN: Type.String({ default: '', description: 'Bearer token for KUBE_API_URL' }),
  KUBECONFIG: Type.String({ default: '', description: 'kubeconfig file (server, token or client certificate, CA)' }),
  KUBE_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 1, description: 'Timeout of each Kubernetes API call' }),
  KUBERNETES_SERVICE_HOST: Type.String({ default: '', description: 'Set by Kubernetes in a pod: enables the in-cluster service account' }),
  KUBERNETES_SERVICE_PORT: Type.String({ default: '443', description: 'Set by Kubernetes in a pod' }),
  ...AuthConfigProperties
})

export type Config = Static<typeof ConfigSchema>

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => readConfig(ConfigSchema, env)
