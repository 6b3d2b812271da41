// The stack under faults, over real HTTP with the five processes: a secret never reaches a log and is redacted in
// default answers; the orchestrator killed in the middle of a commit blocks the next commit only until the
// lock's lease runs out.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { runningStack } from './helpers/running-stack.ts'

const SITE = resolve(import.meta.dirname, '../../../examples/site')
const ADMIN = 'reliability-admin-token'
// long enough that the restarted orchestrator is up while the dead one's lock still holds, short enough to wait out
const LEASE_S = 10
const SECRET = `pass-${randomBytes(12).toString('hex')}`
const running = runningStack({
  name: 'reliability',
  adminToken: ADMIN,
  callTimeoutMs: 30_000,
  env: {
    engine: { ENGINE_TASK_MS: '30', LOG_LEVEL: 'debug' },
    orchestrator: { TAG_POLL_INTERVAL_MS: '200', COMMIT_LOCK_LEASE_S: String(LEASE_S), LOG_LEVEL: 'debug' },
    bootstrap: { LOG_LEVEL: 'debug' },
    store: { LOG_LEVEL: 'debug' }
  }
})
const { call, until, logs } = running
const SECRET_DOCUMENT = `---
schema: deckhand/Passphrase/v1
metadata:
  schema: metadata/Document/v1
  name: ipmi-admin-password
  layeringDefinition:
    abstract: false
    layer: site
  storagePolicy: encrypted
data: ${SECRET}
`

describe('the stack under faults', () => {
  it('never writes a secret to a log, and redacts it unless cleartext-secrets is asked for', async () => {
    const yaml = 'application/x-yaml'
    expect((await call('POST', '/configdocs/global', { body: readFileSync(join(SITE, 'global.yaml'), 'utf8'), type: yaml })).status).toBe(201)
    expect((await call('POST', '/configdocs/site?buffermode=append', { body: readFileSync(join(SITE, 'site.yaml'), 'utf8') + SECRET_DOCUMENT, type: yaml })).status).toBe(201)
    const buffered = await call('GET', '/configdocs/site?version=buffer')
    expect(buffered.status).toBe(200)
    expect(buffered.text).not.toContain(SECRET)
    const commit = await call('POST', '/commitconfigdocs')
    expect(commit.status, commit.text).toBe(200)

    // default answers are redacted; rendered documents show the value only when cleartext-secrets is asked for
    // (raw documents then show the secret store's reference, as Deckhand's do)
    for (const path of ['/configdocs/site?version=committed', '/renderedconfigdocs?version=committed']) {
      const redacted = await call('GET', path)
      expect(redacted.status, path).toBe(200)
      expect(redacted.text, path).toContain('ipmi-admin-password')
      expect(redacted.text, path).not.toContain(SECRET)
    }
    const clear = await call('GET', '/renderedconfigdocs?version=committed&cleartext-secrets=true')
    expect(clear.status).toBe(200)
    expect(clear.text).toContain(SECRET)

    // the secret travels through a whole deploy_site and a join script
    const created = await call('POST', '/actions', { body: '{"name": "deploy_site"}', type: 'application/json' })
    expect(created.status, created.text).toBe(201)
    const id = String(created.json().id)
    const done = await until('deploy_site to finish', async () => {
      const action = (await call('GET', `/actions/${id}`)).json()
      return ['Complete', 'Failed'].includes(String(action.action_lifecycle)) ? action : undefined
    })
    expect(done.action_lifecycle).toBe('Complete')
    const designRef = `deckhand+${running.stack.urls.store}/api/v1.0/revisions/${String(created.json().committed_rev_id)}/rendered-documents`
    const script = await call('GET', `/join-scripts?${new URLSearchParams({ design_ref: designRef, hostname: 'n1', ip: '192.168.77.11', 'labels.dynamic': 'node-role.kubernetes.io/worker=' }).toString()}`, { base: `${running.stack.urls.bootstrap}/api/v1.0` })
    expect(script.status, script.text).toBe(200)
    for (const step of (done.steps as Array<{ id: string }>)) await call('GET', `/actions/${id}/steps/${step.id}/logs`)

    const all = logs.join('\n')
    expect(logs.length).toBeGreaterThan(100)
    const seen = all.split(SECRET).length - 1
    console.log(`secrets: ${logs.length} log lines from 5 processes scanned, the secret appears ${seen} times`)
    expect(seen).toBe(0)
  }, 120_000)

  it('lets the next commit through once the lease of an orchestrator killed in the middle of a commit runs out', async () => {
    const yaml = 'application/x-yaml'
    const changed = readFileSync(join(SITE, 'global.yaml'), 'utf8').replace('kubelet stand-in', 'kubelet stand-in, second edition')
    expect((await call('POST', '/configdocs/global?buffermode=replace', { body: changed, type: yaml })).status).toBe(201)
    // the commit hangs on the bootstrap service's validation, holding the lock, when the orchestrator dies
    running.stack.signalProcess('bootstrap', 'SIGSTOP')
    const hanging = call('POST', '/commitconfigdocs').catch((error: unknown) => error)
    const expiresAt = Date.parse(await until('the commit to hold the configdocs lock', async () => liveCommitLock()))
    await running.stack.stopProcess('orchestrator', 'SIGKILL')
    expect(await hanging).toBeInstanceOf(Error)
    running.stack.signalProcess('bootstrap', 'SIGCONT')
    await running.stack.startProcess('orchestrator')
    const restartedAt = Date.now()

    const statuses: number[] = []
    const committed = await until('a commit after the lease', async () => {
      const res = await call('POST', '/commitconfigdocs')
      statuses.push(res.status)
      if (res.status === 409) expect(res.json()).toMatchObject({ message: 'Blocked by another process' })
      return res.status === 409 ? undefined : res
    }, LEASE_S * 1000 + 60_000)
    const committedAt = Date.now()
    console.log(`commit after SIGKILL: restarted ${((expiresAt - restartedAt) / 1000).toFixed(1)} s before the lease ran out; ` +
      `${statuses.filter((s) => s === 409).length} answers 409 while it ran, then ${committed.status} ${((committedAt - expiresAt) / 1000).toFixed(1)} s after it (lease ${LEASE_S} s)`)
    expect(committed.status, committed.text).toBe(200)
    // blocked while the dead holder's lease ran (every answer before its end was a 409), and not long after
    expect(committedAt).toBeGreaterThanOrEqual(expiresAt)
    expect(committedAt - expiresAt).toBeLessThan(30_000)
    const versions = await call('GET', '/configdocs/global?version=committed')
    expect(versions.text).toContain('second edition')
  }, 150_000)

  it('answers oversized headers and query strings on both services with 431 and an error body, over real HTTP', async () => {
    const oversized = [
      { what: 'a 20 KB header', path: '/api/v1.0/health', headers: { 'x-junk': 'a'.repeat(20_000) } },
      { what: 'a 100 KB query string', path: `/api/v1.0/health?q=${'%24%28reboot%29'.repeat(7000)}`, headers: {} },
      { what: '300 headers', path: '/api/v1.0/health', headers: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`x-h${i}`, 'v'.repeat(80)])) }
    ]
    for (const service of ['orchestrator', 'bootstrap'] as const) {
      for (const probe of oversized) {
        const response = await fetch(`${running.stack.urls[service]}${probe.path}`, { headers: { 'x-auth-token': ADMIN, ...probe.headers }, signal: AbortSignal.timeout(10_000) })
        expect(response.status, `${service}: ${probe.what}`).toBe(431)
        expect(await response.json()).toMatchObject({ kind: 'status', status: 'Failure', code: '431 Request Header Fields Too Large' })
      }
      // the service is still there
      expect((await fetch(`${running.stack.urls[service]}/api/v1.0/health`)).status).toBeLessThan(300)
    }
  })
})

/**
 * The expiry of the configdocs lock while a holder has it, as the orchestrator's database keeps it (read-only, beside
 * the running orchestrator): how the test knows the commit is inside the lock, whatever the machine's speed.
 */
function liveCommitLock (): string | undefined {
  const db = new DatabaseSync(join(running.dataDir, 'orchestrator', 'orchestrator.sqlite'), { readOnly: true })
  try {
    const row = db.prepare("SELECT expires_at FROM api_locks WHERE lock_type = 'configdocs_update' AND released = 0 ORDER BY acquired_at DESC LIMIT 1")
      .get() as { expires_at: string } | undefined
    return row !== undefined && Date.parse(row.expires_at) > Date.now() ? row.expires_at : undefined
  } finally {
    db.close()
  }
}
