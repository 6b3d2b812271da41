// What `npm start` prints once every process is healthy: where each one answers, which Node runs them, where the data
// is, and the admin token.
import type { Stack } from './stack.ts'

/** `PostgreSQL at host:port/database` of a DATABASE_URL, without its credentials. */
function databaseOf (url: string): string {
  try {
    const parsed = new URL(url)
    return `PostgreSQL at ${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}${parsed.pathname}`
  } catch {
    return 'PostgreSQL (DATABASE_URL)'
  }
}

export function banner (options: { stack: Stack, dataDir: string, startedMs: number, databaseUrl?: string | undefined }): string {
  const { urls, adminToken } = options.stack
  const database = options.databaseUrl === undefined || options.databaseUrl === ''
    ? ''
    : `; the orchestrator's database: ${databaseOf(options.databaseUrl)}`
  return [
    '',
    `Slipway is up in ${options.startedMs} ms on Node ${process.version} (data in ${options.dataDir}${database})`,
    `  orchestrator  ${urls.orchestrator}/api/v1.0   (lists its routes)`,
    `  bootstrap     ${urls.bootstrap}/api/v1.0   (lists its routes)`,
    `  store         ${urls.store}/api/v1.0   (Deckhand stand-in, API base)`,
    options.stack.airflow === undefined
      ? `  engine        ${urls.engine}/api/v2     (Airflow 3 stand-in, API base)`
      : `  engine        ${urls.engine}/api/v2     (Apache Airflow ${options.stack.airflow.version}, ` +
        `user ${options.stack.airflow.username}, password ${options.stack.airflow.password}; home ${options.stack.airflow.home})`,
    `  site          ${urls.site}/api/v1.0   (Drydock, Armada at /armada/api/v1.0, Kubernetes at /api/v1)`,
    '',
    `  console       ${urls.orchestrator}/console/   (sign in with the admin token)`,
    `  admin token   ${adminToken}`,
    `  try: curl -H 'X-Auth-Token: ${adminToken}' ${urls.orchestrator}/api/v1.0/configdocs`,
    '',
    'Ctrl-C stops everything.',
    ''
  ].join('\n')
}
