import { describe, expect, it } from 'vitest'
import { createInventory } from '../../src/domain/inventory.ts'
import { createNodeList, type NodeListOptions } from '../../src/domain/node-list.ts'
import { BadListOptionsError, ContinueExpiredError } from '../../src/errors.ts'

function setup (keptSnapshots?: number) {
  const inventory = createInventory()
  // added out of order, with names that locale order and code-unit order sort differently
  inventory.addMissing([{ hostname: 'n-b' }, { hostname: 'na' }, { hostname: 'n-a', labels: { role: 'control' } }, { hostname: 'nb', labels: { role: 'control' } }])
  const list = createNodeList({ inventory, keptSnapshots })
  const page = (options: NodeListOptions) => list.page(list.parse(options))
  const names = (options: NodeListOptions) => page(options).nodes.map((n) => n.hostname)
  return { inventory, page, names }
}

describe('createNodeList', () => {
  it('lists every node in code-unit order (etcd key order) without options', () => {
    const { page } = setup()
    const all = page({})
    expect(all.nodes.map((n) => n.hostname)).toEqual(['n-a', 'n-b', 'na', 'nb'])
    expect(all).toMatchObject({ resourceVersion: 4 })
    expect(all).not.toHaveProperty('continue')
  })

  it('applies label and field selectors together', () => {
    const { names } = setup()
    expect(names({ labelSelector: 'role=control', fieldSelector: 'metadata.name!=nb' })).toEqual(['n-a'])
    expect(names({ fieldSelector: 'metadata.name=na' })).toEqual(['na'])
    expect(names({ fieldSelector: 'spec.unschedulable=false' })).toHaveLength(4)
  })

  it('pages with limit and a continue token, remainingItemCount only without selectors', () => {
    const { page } = setup()
    const first = page({ limit: 3 })
    expect(first.nodes.map((n) => n.hostname)).toEqual(['n-a', 'n-b', 'na'])
    expect(first).toMatchObject({ resourceVersion: 4, remainingItemCount: 1, continue: expect.any(String) })
    const second = page({ limit: 3, continue: first.continue })
    expect(second.nodes.map((n) => n.hostname)).toEqual(['nb'])
    expect(second).not.toHaveProperty('continue')
    const selected = page({ limit: 1, labelSelector: 'role=control' })
    expect(selected.nodes.map((n) => n.hostname)).toEqual(['n-a'])
    expect(selected).not.toHaveProperty('remainingItemCount')
    expect(page({ labelSelector: 'role=control', continue: selected.continue }).nodes.map((n) => n.hostname)).toEqual(['nb'])
  })

  it('serves the later pages from the first page\'s snapshot when the nodes changed since', () => {
    const { inventory, page } = setup()
    const first = page({ limit: 2 })
    inventory.patchNode('nb', { metadata: { labels: { role: 'worker' } } }, 'merge')
    inventory.addMissing([{ hostname: 'nc' }])
    const second = page({ limit: 5, continue: first.continue })
    expect(second.resourceVersion).toBe(4)
    expect(second.nodes.map((n) => [n.hostname, n.labels.role])).toEqual([['na', undefined], ['nb', 'control']])
    expect(page({}).resourceVersion).toBe(6)
  })

  it('refuses a continue token whose snapshot is gone with ContinueExpiredError', () => {
    const { inventory, page } = setup(1)
    const first = page({ limit: 1 })
    inventory.addMissing([{ hostname: 'nc' }])
    page({ limit: 1 })
    expect(() => page({ continue: first.continue })).toThrow(ContinueExpiredError)
  })

  it.each(['garbage', Buffer.from('{"v":1,"rv":"x","start":"a"}').toString('base64url')])('refuses the continue token %j with BadListOptionsError', (token) => {
    const { page } = setup()
    expect(() => page({ continue: token })).toThrow(BadListOptionsError)
  })
})
