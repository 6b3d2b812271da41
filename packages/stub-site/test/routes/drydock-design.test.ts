import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Value } from 'typebox/value'
import { parseYamlDocuments } from '@slipway/common'
import { DesignValidationSchema } from '../../src/schemas/drydock.ts'
import { JSON_HEADERS, SITE_NODES, designNode, startDesignServer } from '../helpers/drydock.ts'
import { buildTestApp } from '../helpers/site.ts'

const EXAMPLE_SITE = resolve(import.meta.dirname, '../../../../examples/site')

async function post (app: Awaited<ReturnType<typeof buildTestApp>>, url: string, payload: unknown) {
  return await app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload) })
}

describe('POST /api/v1.0/validatedesign', () => {
  it('answers 200 and Success for a design whose drydock documents fit Drydock\'s schemas', async () => {
    const app = await buildTestApp()
    const design = await startDesignServer()
    const res = await post(app, '/api/v1.0/validatedesign', { rel: 'design', href: design.designRef(), type: 'application/x-yaml' })
    expect(res.statusCode).toBe(200)
    expect(Value.Check(DesignValidationSchema, res.json())).toBe(true)
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1.0',
      metadata: {},
      message: null,
      reason: null,
      status: 'Success',
      details: { errorCount: 0, messageList: [] },
      code: 200
    })
  })

  it('answers 400 with a DD001 message per schema error: data.labels on a BaremetalNode is refused', async () => {
    const app = await buildTestApp()
    const labelled = designNode('n9')
    const bad = { ...labelled, data: { ...labelled.data, labels: { 'node-role': 'worker' } } }
    const wrongType = designNode('n8')
    wrongType.data.metadata = { ...wrongType.data.metadata, rack: 7 as unknown as string }
    const design = await startDesignServer([...SITE_NODES, bad, wrongType])
    const res = await post(app, '/api/v1.0/validatedesign', { rel: 'design', href: design.href(), type: 'application/x-yaml' })
    expect(res.statusCode).toBe(400)
    const body = res.json()
    expect(body).toMatchObject({ kind: 'Status', status: 'failure', code: 400, details: { errorCount: 2 } })
    expect(body.details.messageList).toEqual([
      {
        kind: 'ValidationMessage',
        name: 'DD001',
        message: "BaremetalNode:v1 schema validation error: Additional properties are not allowed ('labels' was unexpected)",
        error: true,
        level: 'Error',
        diagnostic: 'Invalid input file - see Drydock Troubleshooting Guide for DD001',
        ts: expect.stringMatching(/\+00:00$/),
        documents: [{ schema: 'drydock/BaremetalNode/v1', name: 'n9' }]
      },
      expect.objectContaining({ name: 'DD001', message: "BaremetalNode:v1 schema validation error: 7 is not of type 'string'", documents: [{ schema: 'drydock/BaremetalNode/v1', name: 'n8' }] })
    ])
  })

  it('reads a JSON design as well as YAML, and checks HostProfiles too', async () => {
    const app = await buildTestApp()
    const profile = { schema: 'drydock/HostProfile/v1', metadata: { name: 'cp' }, data: { platform: { image: 'jammy', extra: true } } }
    const design = await startDesignServer([profile])
    design.state.json = true
    const res = await post(app, '/api/v1.0/validatedesign', { href: design.designRef() })
    expect(res.statusCode).toBe(400)
    expect(res.json().details.messageList[0].message).toBe("HostProfile:v1 schema validation error: Additional properties are not allowed ('extra' was unexpected)")
  })

  it('checks every kind Drydock has a schema for, in Drydock\'s terms', async () => {
    const app = await buildTestApp()
    const doc = (schema: string, name: string, data: unknown) => ({ schema: `drydock/${schema}/v1`, metadata: { name }, data })
    const valid = [
      doc('Region', 'site', { tag_definitions: [{ tag: 'hp', definition_type: 'lshw_xpath', definition: '//x' }], repositories: { remove_unlisted: true, main: { anything: 1 } } }),
      doc('Rack', 'rack1', { tor_switches: { mgmt_ip: 'not an ip' }, location: { clli: 'X', grid: 'Y' }, local_networks: ['pxe'], labels: { a: 1 } }),
      doc('Network', 'pxe', { cidr: '10.0.0.0/24', ranges: [{ type: 'static', start: '10.0.0.1', end: '10.0.0.9' }], mtu: 1500, vlan: '100' }),
      doc('NetworkLink', 'gp', { bonding: { mode: '802.3ad', mon_rate: 100 }, mtu: 9000, trunking: { mode: '802.1q' }, allowed_networks: ['pxe'] }),
      doc('HardwareProfile', 'hp', { vendor: 'Dell', boot_mode: 'uefi', bootstrap_protocol: 'pxe', pxe_interface: 0, hugepages: { dpdk: { size: '1G', count: 4 } } }),
      doc('BootAction', 'ba', {
        signaling: false,
        assets: [{ path: '/etc/x', type: 'file', data: 'text', permissions: '644', data_pipeline: ['utf8_decode'] }],
        node_filter: { filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: ['n1'] }] }
      })
    ]
    const design = await startDesignServer(valid)
    const ok = await post(app, '/api/v1.0/validatedesign', { href: design.designRef() })
    expect(ok.json().details.messageList).toEqual([])

    design.state.documents = [
      doc('HardwareProfile', 'hp', { boot_mode: 'efi' }),
      doc('Network', 'pxe', { cidr: '10.0.0.0/24', gateway: '10.0.0.1' }),
      doc('BootAction', 'ba', { assets: [{ path: '/etc/x' }] }),
      // Drydock reads only its own namespace, and kinds it has a v1 schema for
      { schema: 'promenade/Kubelet/v1', metadata: { name: 'k' }, data: { anything: true } },
      doc('PromenadeConfig', 'p', { anything: true })
    ]
    const bad = await post(app, '/api/v1.0/validatedesign', { href: design.designRef() })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().details.messageList.map((m: { message: string }) => m.message)).toEqual([
      "HardwareProfile:v1 schema validation error: 'efi' is not one of ['bios', 'uefi']",
      "Network:v1 schema validation error: Additional properties are not allowed ('gateway' was unexpected)",
      "BootAction:v1 schema validation error: 'type' is a required property"
    ])
  })

  it('finds the example site valid', async () => {
    const app = await buildTestApp()
    const documents = ['global.yaml', 'site.yaml'].flatMap((f) => parseYamlDocuments(readFileSync(resolve(EXAMPLE_SITE, f), 'utf8')))
    expect(documents.some((d) => (d as { schema?: string }).schema === 'drydock/BaremetalNode/v1')).toBe(true)
    const design = await startDesignServer(documents)
    const res = await post(app, '/api/v1.0/validatedesign', { rel: 'design', href: design.designRef() })
    expect(res.json().details.messageList).toEqual([])
    expect(res.statusCode).toBe(200)
  })

  it('answers 400 for an empty body or no href, and 500 when the design cannot be read', async () => {
    const app = await buildTestApp()
    const empty = await app.inject({ method: 'POST', url: '/api/v1.0/validatedesign' })
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({ type: 'error', message: 'Request body must not be empty for validation.', retry: false })
    const noHref = await post(app, '/api/v1.0/validatedesign', { rel: 'design' })
    expect(noHref.statusCode).toBe(400)
    expect(noHref.json()).toMatchObject({ type: 'error', message: 'The "href" key must be provided in the request body.' })
    const design = await startDesignServer()
    const missing = await post(app, '/api/v1.0/validatedesign', { href: design.designRef(5) })
    expect(missing.statusCode).toBe(500)
    expect(missing.json()).toMatchObject({ type: 'error', message: 'Unable to fetch the design', retry: false, reason: expect.stringContaining('revisions/5/rendered-documents') })
  })
})

describe('POST /api/v1.0/nodefilter', () => {
  it('answers the names of the nodes the filter selects, every node without a filter', async () => {
    const app = await buildTestApp()
    const design = await startDesignServer()
    const all = await post(app, '/api/v1.0/nodefilter', { node_filter: null, design_ref: design.designRef() })
    expect(all.statusCode).toBe(200)
    expect(all.json()).toEqual(['n0', 'n1', 'n2', 'n3'])
    const filter = { filter_set_type: 'intersection', filter_set: [{ filter_type: 'union', node_tags: ['worker'] }, { filter_type: 'union', rack_names: ['rack2'] }] }
    expect((await post(app, '/api/v1.0/nodefilter', { node_filter: filter, design_ref: design.designRef() })).json()).toEqual(['n3'])
  })

  it('answers 400 without a design_ref, 500 for a filter Drydock cannot apply, [] for a design it cannot read', async () => {
    const app = await buildTestApp()
    const design = await startDesignServer()
    const noRef = await post(app, '/api/v1.0/nodefilter', { node_filter: null })
    expect(noRef.statusCode).toBe(400)
    expect(noRef.json()).toMatchObject({ type: 'error', message: 'Missing input required value: design_ref', retry: false })
    const bad = await post(app, '/api/v1.0/nodefilter', { node_filter: { filter_set_type: 'xor', filter_set: [] }, design_ref: design.designRef() })
    expect(bad.statusCode).toBe(500)
    expect(bad.json()).toMatchObject({ type: 'error', message: 'Unknown error', reason: 'Unknown filter set type xor' })
    const unread = await post(app, '/api/v1.0/nodefilter', { node_filter: null, design_ref: design.designRef(9) })
    expect(unread.statusCode).toBe(200)
    expect(unread.json()).toEqual([])
  })
})
