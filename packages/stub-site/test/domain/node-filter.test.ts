import { describe, expect, it } from 'vitest'
import { applyNodeFilter, designNodes } from '../../src/domain/drydock/node-filter.ts'
import { NodeFilterError } from '../../src/errors.ts'
import { SITE_NODES, designNode } from '../helpers/drydock.ts'
import { baremetalNode } from '../helpers/site.ts'

const nodes = designNodes(SITE_NODES)
const pick = (filter: unknown) => applyNodeFilter(filter, nodes).map((n) => n.name)

describe('designNodes', () => {
  it('takes the concrete BaremetalNodes in design order with tags, rack and owner_data', () => {
    const docs = [{ schema: 'drydock/HostProfile/v1', metadata: { name: 'cp' } }, baremetalNode('base', { abstract: true }), ...SITE_NODES, designNode('n1')]
    const found = designNodes(docs)
    expect(found.map((n) => n.name)).toEqual(['n0', 'n1', 'n2', 'n3'])
    expect(found[3]).toMatchObject({ tags: ['worker'], rack: 'rack2', ownerData: { 'node-role': 'worker', zone: 'b' } })
  })
})

describe('applyNodeFilter', () => {
  it('selects every node without a filter', () => {
    expect(pick(null)).toEqual(['n0', 'n1', 'n2', 'n3'])
    expect(pick(undefined)).toEqual(['n0', 'n1', 'n2', 'n3'])
  })

  it('joins the criteria of one filter by its filter_type', () => {
    const union = { filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: ['n0'], rack_names: ['rack2'] }] }
    expect(pick(union)).toEqual(['n0', 'n3'])
    const both = { filter_set_type: 'union', filter_set: [{ filter_type: 'intersection', node_tags: ['worker'], rack_names: ['rack1'] }] }
    expect(pick(both)).toEqual(['n1', 'n2'])
  })

  it('matches node_labels on owner_data, any one label sufficing, and rack_labels on every node', () => {
    expect(pick({ filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_labels: { zone: 'b', 'node-role': 'control' } }] })).toEqual(['n0', 'n3'])
    expect(pick({ filter_set_type: 'union', filter_set: [{ filter_type: 'union', rack_labels: { a: 'b' } }] })).toHaveLength(4)
  })

  it('joins the filters of the set by filter_set_type', () => {
    const workers = { filter_type: 'union', node_tags: ['worker'] }
    const rack1 = { filter_type: 'union', rack_names: ['rack1'] }
    expect(pick({ filter_set_type: 'intersection', filter_set: [workers, rack1] })).toEqual(['n1', 'n2'])
    expect(pick({ filter_set_type: 'union', filter_set: [{ filter_type: 'union', node_names: ['n3'] }, { filter_type: 'union', node_tags: ['control'] }] })).toEqual(['n0', 'n3'])
  })

  it('refuses what Drydock cannot apply: a non-object filter, an unknown set or filter type', () => {
    expect(() => pick('n1')).toThrow(NodeFilterError)
    const reason = (filter: unknown): string | undefined => {
      try {
        pick(filter)
      } catch (error) {
        return (error as NodeFilterError).reason
      }
    }
    expect(reason({ filter_set_type: 'some', filter_set: [] })).toBe('Unknown filter set type some')
    expect(reason({ filter_set_type: 'union', filter_set: [{ filter_type: 'xor', node_names: ['n1'] }] })).toBe('Unknown filter type xor')
    expect(reason('n1')).toBe("Invalid node_filter, must be a dictionary with keys 'filter_set_type' and 'filter_set'.")
  })
})
