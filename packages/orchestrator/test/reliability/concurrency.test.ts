// 200 concurrent stage, commit and create-action requests, on SQLite and on PostgreSQL: the seed's rules hold
// (the configdocs lock lets one request in at a time, one site action runs at a time), no answer is a 5xx, and
// the database and the store agree with what was answered.
import { describe, expect, it } from 'vitest'
import { parseYamlDocument } from '@slipway/common'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { DATABASES } from '../helpers/databases.ts'

const N = 200
const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

function tally (statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

function collection (i: number): string {
  return [
    'schema: deckhand/LayeringPolicy/v1',
    'metadata:',
    '  schema: metadata/Control/v1',
    `  name: layering-policy-${i}`,
    '  storagePolicy: cleartext',
    'data:',
    '  layerOrder: [global, site]',
    ''
  ].join('\n')
}

describe.each(DATABASES)('$name: 200 concurrent requests', (backend) => {
  it.skipIf(backend.skip)('stage: each answer is 201 or 409, and the buffer holds exactly the collections answered 201', async () => {
    const { repos } = await backend.open()
    const { app } = await buildTestStack({ repos })
    const answers = await Promise.all(Array.from({ length: N }, async (_, i) =>
      await app.inject({ method: 'POST', url: `/api/v1.0/configdocs/c${i}`, headers: YAML, payload: collection(i) })))
    const counts = tally(answers.map((a) => a.statusCode))
    console.log(`concurrency (${backend.name}) stage: ${JSON.stringify(counts)}`)
    expect(Object.keys(counts).map(Number).every((s) => s === 201 || s === 409), JSON.stringify(counts)).toBe(true)
    expect(counts[201]).toBeGreaterThanOrEqual(1)
    // 409: the lock was held, or the buffer was no longer empty (rejectOnContents, the default buffermode)
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(isErrorBody(answer.json())).toBe(true)
      expect(['Blocked by another process', 'Invalid collection specified for buffer']).toContain(answer.json().message)
    }
    const won = answers.flatMap((a, i) => a.statusCode === 201 ? [`c${i}`] : []).sort()
    const buffer = (await app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json() as Array<{ collection_name: string }>
    expect(buffer.map((c) => c.collection_name).sort()).toEqual(won)
  }, 120_000)

  it.skipIf(backend.skip)('commit: exactly one 200, the others 409 with error bodies, one committed revision', async () => {
    const { repos } = await backend.open()
    const { app, store } = await buildTestStack({ repos })
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: YAML, payload: GLOBAL_YAML })).statusCode).toBe(201)
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: YAML, payload: SITE_YAML })).statusCode).toBe(201)
    const answers = await Promise.all(Array.from({ length: N }, async () =>
      await app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })))
    const counts = tally(answers.map((a) => a.statusCode))
    console.log(`concurrency (${backend.name}) commit: ${JSON.stringify(counts)}`)
    expect(counts[200]).toBe(1)
    expect(counts[409]).toBe(N - 1)
    for (const answer of answers.filter((a) => a.statusCode === 409)) expect(isErrorBody(answer.json())).toBe(true)
    const revisions = parseYamlDocument(await fetch(`${store.url}/revisions`).then(async (r) => await r.text())) as { results: Array<{ tags: string[] }> }
    expect(revisions.results.filter((r) => r.tags.includes('committed'))).toHaveLength(1)
  }, 120_000)

  it.skipIf(backend.skip)('create deploy_site: exactly one 201 and one run, the others 409 saved with their failed validation', async () => {
    const { repos } = await backend.open()
    // the run must still be in progress when the last request arrives, however slow the machine: its last step hangs
    const { app, engineClient } = await buildTestStack({ repos, engineEnv: { ENGINE_TASK_MS: '200', ENGINE_HANG_TASKS: 'deploy_site/final_deployment_status' } })
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: YAML, payload: GLOBAL_YAML })).statusCode).toBe(201)
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: YAML, payload: SITE_YAML })).statusCode).toBe(201)
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })).statusCode).toBe(200)
    const answers = await Promise.all(Array.from({ length: N }, async () =>
      await app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: JSON_HEADERS, payload: '{"name": "deploy_site"}' })))
    const counts = tally(answers.map((a) => a.statusCode))
    console.log(`concurrency (${backend.name}) create-action: ${JSON.stringify(counts)}`)
    expect(counts[201]).toBe(1)
    expect(counts[409]).toBe(N - 1)
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(answer.json()).toMatchObject({ message: 'Unable to start action', action_lifecycle: 'Failed' })
    }
    const runs = await engineClient.runs({ dagIds: ['deploy_site'] }, {})
    expect(runs).toHaveLength(1)
    const winner = String(answers.find((a) => a.statusCode === 201)?.json().id)
    expect(runs[0]?.dag_run_id).toBe(winner)
    const saved = await repos.actions.list()
    expect(saved).toHaveLength(N)
    expect(saved.filter((a) => !a.validation_failed).map((a) => a.id)).toEqual([winner])
    for (const action of saved) expect(await repos.audit.listFor(action.id)).toHaveLength(1)
  }, 120_000)
})
