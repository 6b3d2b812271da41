import { describe, expect, it } from 'vitest'
import { seedFromBaremetalNode } from '../../src/domain/design.ts'
import { baremetalNode } from '../helpers/site.ts'

describe('seedFromBaremetalNode', () => {
  it('takes the name, the oob address as power address, pxe as boot ip, the next network as internal ip, owner_data as labels', () => {
    const doc = baremetalNode('cab23-r720-11', { oob: '10.23.104.11', pxe: '10.23.20.11', calico: '10.23.22.11', labels: { 'ucp-control-plane': 'enabled' } })
    expect(seedFromBaremetalNode(doc)).toEqual({
      hostname: 'cab23-r720-11',
      power_address: '10.23.104.11',
      boot_ip: '10.23.20.11',
      internal_ip: '10.23.22.11',
      labels: { 'ucp-control-plane': 'enabled' }
    })
  })

  it('leaves out addresses the design does not give, dhcp ones, and labels Kubernetes would refuse', () => {
    const doc = baremetalNode('n1', { pxe: 'dhcp', labels: { ok: 'yes', 'bad key': 'x', number: 3, long: 'x'.repeat(70) } })
    expect(seedFromBaremetalNode(doc)).toEqual({ hostname: 'n1', labels: { ok: 'yes' } })
  })

  it('uses pxe for the internal ip when it is the only host network, and reads ip as well as address', () => {
    const doc = baremetalNode('n2')
    doc.data.addressing = [{ network: 'pxe', ip: '10.0.0.5' } as unknown as { network: string, address: string }]
    expect(seedFromBaremetalNode(doc)).toMatchObject({ boot_ip: '10.0.0.5', internal_ip: '10.0.0.5' })
  })

  it('takes no labels from data.labels, which Drydock\'s BaremetalNode schema refuses', () => {
    const doc = { ...baremetalNode('n1'), data: { ...baremetalNode('n1').data, labels: { 'node-role': 'worker' } } }
    expect(seedFromBaremetalNode(doc)).toEqual({ hostname: 'n1', labels: {} })
  })

  it('skips abstract documents, other schemas and nameless documents', () => {
    expect(seedFromBaremetalNode(baremetalNode('base', { abstract: true }))).toBeUndefined()
    expect(seedFromBaremetalNode({ ...baremetalNode('n1'), schema: 'drydock/HostProfile/v1' })).toBeUndefined()
    expect(seedFromBaremetalNode({ schema: 'drydock/BaremetalNode/v1', metadata: {} })).toBeUndefined()
    expect(seedFromBaremetalNode('text')).toBeUndefined()
  })
})
