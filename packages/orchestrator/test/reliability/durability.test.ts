// Durability: actions, their command audit, pre-run validation failures and notes survive a restart of the
// orchestrator, on the embedded SQLite and on PostgreSQL (TEST_DATABASE_URL).
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { DATABASES } from '../helpers/databases.ts'
import { releaseHang } from '../helpers/engine-hang.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' }

describe.each(DATABASES)('$name: across a restart', (backend) => {
  it.skipIf(backend.skip)('keeps every action with its audit, validations and notes, and the restarted service goes on', async () => {
    const { repos, reopen } = await backend.open()
    // deploy_site's last step holds the run in progress until the test lets it go: the second site action is refused
    // and the pause is accepted however slow the machine
    const stack = await buildTestStack({ repos, engineEnv: { ENGINE_HANG_TASKS: 'deploy_site/final_deployment_status' } })
    const inject = async (method: string, url: string, headers: Record<string, string> = AUTH, payload?: string) =>
      await stack.app.inject({ method: method as 'GET', url: `/api/v1.0${url}`, headers, payload })
    expect((await inject('POST', '/configdocs/global', YAML, GLOBAL_YAML)).statusCode).toBe(201)
    expect((await inject('POST', '/configdocs/site?buffermode=append', YAML, SITE_YAML)).statusCode).toBe(201)
    expect((await inject('POST', '/commitconfigdocs')).statusCode).toBe(200)
    const created = await inject('POST', '/actions', JSON_HEADERS, '{"name": "deploy_site"}')
    expect(created.statusCode).toBe(201)
    const id = String(created.json().id)
    // a second site action is refused and saved with its failed validation
    const refused = await inject('POST', '/actions', JSON_HEADERS, '{"name": "update_site"}')
    expect(refused.statusCode).toBe(409)
    expect((await inject('POST', `/actions/${id}/control/pause`)).statusCode).toBe(202)
    expect((await inject('POST', `/actions/${id}/control/unpause`)).statusCode).toBe(202)

    const before = {
      list: (await inject('GET', '/actions')).json() as Array<Record<string, unknown>>,
      action: (await inject('GET', `/actions/${id}?verbosity=5`)).json(),
      refused: (await inject('GET', `/actions/${String(refused.json().id)}`)).json()
    }
    expect(before.list).toHaveLength(2)
    expect((before.action.command_audit as Array<{ command: string }>).map((a) => a.command)).toEqual(['invoke', 'pause', 'unpause'])
    expect(before.action.notes).toEqual(expect.arrayContaining([expect.objectContaining({ note_val: 'Configdoc revision 2' })]))
    expect(before.refused.validations).toHaveLength(1)

    // the restart: the service and its database connection go away; a new service opens the same data
    await stack.app.close()
    await repos.close()
    const again = await stack.orchestrator(await reopen())
    const after = async (url: string) => (await again.app.inject({ url: `/api/v1.0${url}`, headers: AUTH })).json()
    try {
      const action = await after(`/actions/${id}?verbosity=5`)
      for (const key of ['id', 'name', 'parameters', 'user', 'context_marker', 'committed_rev_id', 'command_audit', 'notes', 'validations', 'dag_execution_date']) {
        expect(action[key], key).toEqual(before.action[key])
      }
      expect(await after(`/actions/${String(refused.json().id)}`)).toEqual(before.refused)
      expect(((await after('/actions')) as Array<{ id: string }>).map((a) => a.id)).toEqual(before.list.map((a) => a.id))
      // and the run goes on to the end, seen by the restarted service
      await releaseHang(stack.engine.url, 'deploy_site', id, 'final_deployment_status')
      const deadline = Date.now() + 30_000
      while ((await after(`/actions/${id}`)).action_lifecycle !== 'Complete') {
        if (Date.now() > deadline) throw new Error('deploy_site did not complete after the restart')
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    } finally {
      await again.app.close()
    }
  }, 60_000)
})
