// Configuration shared by the services for identity and policy, and the factories that read it.
import { Type, type Static } from 'typebox'
import { createKeystoneAuthenticator, createKeystoneServiceToken } from './keystone.ts'
import { createStaticAuthenticator } from './static.ts'
import { createPolicy, readPolicyFile, type Policy } from './policy.ts'
import { staticServiceToken, type Authenticator, type ServiceTokenSource } from './identity.ts'

/** Spread into a service's ConfigSchema: `Type.Object({ ...AuthConfigProperties, PORT: … })`. */
export const AuthConfigProperties = {
  AUTH_PROVIDER: Type.Union([Type.Literal('static'), Type.Literal('keystone')], {
    default: 'static',
    description: 'Token validation: `static` (token file) or `keystone` (Keystone v3)'
  }),
  AUTH_TOKENS_FILE: Type.String({
    default: '',
    description: 'static: YAML file `tokens: {<token>: {user, project, roles, is_admin_project, expires_at}}` (is_admin_project default true), re-read on SIGHUP'
  }),
  AUTH_URI: Type.String({
    default: '',
    description: 'static: identity URI named in `WWW-Authenticate: Keystone uri=…` on a 401; empty: `X-Auth-Token realm="slipway"`, naming no identity service'
  }),
  SERVICE_TOKEN: Type.String({ default: '', description: 'static: token this service sends as `X-Auth-Token` on its own outbound calls' }),
  KEYSTONE_AUTH_URL: Type.String({ default: '', description: 'keystone: identity v3 URL, e.g. http://keystone:5000/v3' }),
  KEYSTONE_USERNAME: Type.String({ default: '', description: 'keystone: the service user' }),
  KEYSTONE_PASSWORD: Type.String({ default: '', description: 'keystone: the service user\'s password' }),
  KEYSTONE_PROJECT_NAME: Type.String({ default: 'service', description: 'keystone: project the service token is scoped to' }),
  KEYSTONE_USER_DOMAIN_NAME: Type.String({ default: 'Default', description: 'keystone: domain of the service user' }),
  KEYSTONE_PROJECT_DOMAIN_NAME: Type.String({ default: 'Default', description: 'keystone: domain of the service project' }),
  KEYSTONE_CACHE_TTL_S: Type.Integer({ default: 300, minimum: 0, description: 'keystone: longest reuse of a token validation' }),
  POLICY_FILE: Type.String({ default: '', description: 'YAML/JSON file overriding policy rules (rule name → rule)' })
}

export const AuthConfigSchema = Type.Object(AuthConfigProperties)
export type AuthConfig = Static<typeof AuthConfigSchema>

function keystoneOptions (config: AuthConfig) {
  if (config.KEYSTONE_AUTH_URL === '') throw new Error('AUTH_PROVIDER=keystone needs KEYSTONE_AUTH_URL')
  return {
    authUrl: config.KEYSTONE_AUTH_URL,
    username: config.KEYSTONE_USERNAME,
    password: config.KEYSTONE_PASSWORD,
    projectName: config.KEYSTONE_PROJECT_NAME,
    userDomainName: config.KEYSTONE_USER_DOMAIN_NAME,
    projectDomainName: config.KEYSTONE_PROJECT_DOMAIN_NAME,
    cacheTtlMs: config.KEYSTONE_CACHE_TTL_S * 1000
  }
}

/**
 * The authenticator the configuration names. With Keystone it validates callers' tokens using `serviceToken`, the
 * process's own token: the composition root builds that one source (`serviceTokenFromConfig`) and hands the same
 * object to this authenticator and to every outbound client, so the process logs in once, not once per user of it.
 */
export function authenticatorFromConfig (
  config: AuthConfig,
  options: { serviceToken: ServiceTokenSource, onReloadError?: (error: unknown) => void }
): Authenticator {
  if (config.AUTH_PROVIDER === 'keystone') {
    return createKeystoneAuthenticator({ ...keystoneOptions(config), serviceToken: options.serviceToken })
  }
  return config.AUTH_TOKENS_FILE === ''
    ? createStaticAuthenticator({ tokens: {}, authUri: config.AUTH_URI })
    : createStaticAuthenticator({ file: config.AUTH_TOKENS_FILE, authUri: config.AUTH_URI, onReloadError: options.onReloadError })
}

/** What the operator should hear at start-up about this identity setup: a static provider without tokens refuses everyone. */
export function authStartupWarnings (config: AuthConfig): string[] {
  if (config.AUTH_PROVIDER !== 'static' || config.AUTH_TOKENS_FILE !== '') return []
  return [
    'AUTH_TOKENS_FILE is not set: no token is valid, so every request but health answers 401 (set AUTH_TOKENS_FILE to a YAML file `tokens: {<token>: {user, roles: [admin]}}`)'
  ]
}

/**
 * How the service authenticates its own outbound calls under this configuration. Each call makes a new source (with
 * Keystone, a new login): build it once per process and pass it to whatever calls out or validates tokens.
 */
export function serviceTokenFromConfig (config: AuthConfig): ServiceTokenSource {
  return config.AUTH_PROVIDER === 'keystone'
    ? createKeystoneServiceToken(keystoneOptions(config))
    : staticServiceToken(config.SERVICE_TOKEN)
}

/** The service's rules: code defaults overridden by POLICY_FILE when set. */
export function policyFromConfig (config: AuthConfig, defaults: Record<string, string>): Policy {
  return createPolicy(defaults, config.POLICY_FILE === '' ? {} : readPolicyFile(config.POLICY_FILE))
}
