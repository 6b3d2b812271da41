// GET /site_statuses over a fake provisioner: each status asked for from its node inventory, the filters, a filter
// that is none of them (400), and the provisioner unreachable (a 5xx naming it). The real provisioner's answer
// through it: routes/actions.test.ts.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestApp } from '../helpers/test-app.ts'

const NODES = [
  { hostname: 'n0', status_name: 'Deployed', power_state: 'off' },
  { hostname: 'n1', status_name: 'Deploying', power_state: 'on' },
  { hostname: 'n2' }
]

/** An app whose fake provisioner holds NODES, and a GET of its site statuses with a query. */
async function appWithNodes () {
  const t = await buildTestApp()
  t.provisioner.state.nodes.push(...NODES)
  return { t, get: async (query: string) => await t.app.inject({ url: `/api/v1.0/site_statuses${query}`, headers: AUTH }) }
}

describe('GET /api/v1.0/site_statuses', () => {
  it('answers every status from the provisioner\'s nodes, null for what a node does not say', async () => {
    const { get } = await appWithNodes()
    const all = await get('')
    expect(all.statusCode).toBe(200)
    expect(all.json()).toEqual({
      'nodes-provision-status': [
        { hostname: 'n0', status: 'Deployed' }, { hostname: 'n1', status: 'Deploying' }, { hostname: 'n2', status: null }
      ],
      'machines-power-state': [
        { hostname: 'n0', power_state: 'off' }, { hostname: 'n1', power_state: 'on' }, { hostname: 'n2', power_state: null }
      ]
    })
  })

  it('answers only the statuses its filters name; 400 naming a filter that is none of them', async () => {
    const { get } = await appWithNodes()
    const one = (await get('?filters=machines-power-state')).json()
    expect(Object.keys(one)).toEqual(['machines-power-state'])
    const bad = await get('?filters=nodes-provision-status%2Cweather')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ status: 'Failure', message: 'Not a valid status filter', reason: 'filter weather is not supported' })
  })

  it('answers a 5xx error body naming the provisioner when it cannot be reached', async () => {
    const { t, get } = await appWithNodes()
    t.provisioner.state.down = true
    const down = await get('')
    expect(down.statusCode).toBeGreaterThanOrEqual(500)
    expect(down.json()).toMatchObject({ status: 'Failure', message: 'Downstream failure: provisioner' })
  })
})
