// When a started Airflow is ready for Slipway: its auth manager issues a token and every site DAG is listed,
// parsed without import errors. Bounded: a process that exits, or a deadline, ends the wait with the reason.
import type { GroupProcess } from '@slipway/common/process-group'

/** A token of the simple auth manager, or undefined while the API server does not issue one. */
export async function fetchToken (url: string, username: string, password: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
      signal: AbortSignal.timeout(5000)
    })
    if (response.status !== 201) { await response.body?.cancel(); return undefined }
    return ((await response.json()) as { access_token?: string }).access_token
  } catch {
    return undefined
  }
}

interface DagsAnswer { dags?: Array<{ dag_id: string, has_import_errors?: boolean }> }
interface ImportErrors { import_errors?: Array<{ filename: string, stack_trace: string }> }

async function getJson<T> (url: string, token: string): Promise<T | undefined> {
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) })
    if (response.status !== 200) { await response.body?.cancel(); return undefined }
    return await response.json() as T
  } catch {
    return undefined
  }
}

export async function waitReady (options: {
  url: string
  username: string
  password: string
  dags: string[]
  timeoutMs: number
  exited: Promise<{ name: string, group: GroupProcess }>
}): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  let gone: { name: string, group: GroupProcess } | undefined
  options.exited.then((which) => { gone = which }, () => {})
  let missing = options.dags
  let importErrors: string[] = []
  let tokenIssued = false
  while (Date.now() < deadline) {
    if (gone !== undefined) {
      throw new Error(`airflow ${gone.name} stopped while starting: ${gone.group.tail().slice(-5).join(' | ')}`)
    }
    const token = await fetchToken(options.url, options.username, options.password)
    tokenIssued = token !== undefined
    if (token !== undefined) {
      const listed = await getJson<DagsAnswer>(`${options.url}/api/v2/dags?limit=100`, token)
      const ok = new Set((listed?.dags ?? []).filter((d) => d.has_import_errors !== true).map((d) => d.dag_id))
      missing = options.dags.filter((d) => !ok.has(d))
      if (missing.length === 0) return
      const errors = await getJson<ImportErrors>(`${options.url}/api/v2/importErrors`, token)
      importErrors = (errors?.import_errors ?? []).map((e) => `${e.filename}: ${e.stack_trace.trim().split('\n').at(-1) ?? ''}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const why = !tokenIssued
    ? 'the API server issued no token'
    : `DAGs not listed: ${missing.join(', ')}${importErrors.length > 0 ? `; import errors: ${importErrors.join('; ')}` : ''}`
  throw new Error(`airflow not ready within ${options.timeoutMs} ms at ${options.url}: ${why}`)
}
