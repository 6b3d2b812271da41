import { describe, expect, it } from 'vitest'
import { groupOrder, missedCriteria, readStrategy, selectorFilter, type GroupSpec } from '../../src/domain/deployment-groups.ts'

const selector = (over: Record<string, string[]> = {}) => ({ node_names: [], node_labels: [], node_tags: [], rack_names: [], ...over })
const group = (name: string, dependsOn: string[] = [], over: Record<string, unknown> = {}) => ({
  name, critical: false, depends_on: dependsOn, selectors: [selector({ node_names: [`${name}-1`] })], ...over
})
const spec = (name: string, dependsOn: string[] = []): GroupSpec => ({
  name, critical: false, depends_on: dependsOn, selectors: [selector()]
})

describe('readStrategy', () => {
  it('reads the groups with their selectors, criticality and success criteria', () => {
    const groups = readStrategy({
      groups: [
        { name: 'control', critical: true, depends_on: [], selectors: [{ node_names: ['n1'] }], success_criteria: { percent_successful_nodes: 100 } },
        { name: 'workers', critical: false, depends_on: ['control'], selectors: [{ node_labels: ['role: worker'], rack_names: ['r1'] }] }
      ]
    })
    expect(groups).toEqual([
      { name: 'control', critical: true, depends_on: [], selectors: [selector({ node_names: ['n1'] })], success_criteria: { percent_successful_nodes: 100 } },
      { name: 'workers', critical: false, depends_on: ['control'], selectors: [selector({ node_labels: ['role: worker'], rack_names: ['r1'] })] }
    ])
  })

  it.each(['name', 'critical', 'depends_on', 'selectors'])('refuses a group without %s, naming the field', (field) => {
    const g: Record<string, unknown> = group('a')
    delete g[field]
    expect(() => readStrategy({ groups: [group('first'), g] })).toThrow(`Deployment group 2: '${field}' is required`)
  })

  it('refuses a strategy with no groups', () => {
    expect(() => readStrategy({ groups: [] })).toThrow('The deployment strategy has no groups')
    expect(() => readStrategy(null)).toThrow('The deployment strategy has no groups')
  })

  it.each(['role', 'role:', ':worker', 'a:b:c'])('refuses the label %j, which is not key:value', (label) => {
    expect(() => readStrategy({ groups: [group('a', [], { selectors: [{ node_labels: [label] }] })] }))
      .toThrow(`Group a: label ${label} is not in key:value form`)
  })

  it('refuses a selector list that is not a list of strings', () => {
    expect(() => readStrategy({ groups: [group('a', [], { selectors: [{ node_names: 'n1' }] })] }))
      .toThrow('Group a node_names must be a list of strings, got "n1"')
  })

  it('refuses a dependency on an unknown group, naming it', () => {
    expect(() => readStrategy({ groups: [group('a'), group('b', ['a', 'ghost'])] }))
      .toThrow('Deployment group b depends on unknown group(s): ghost')
  })

  it('refuses a cycle, naming the groups in it', () => {
    expect(() => readStrategy({ groups: [group('a'), group('b', ['d']), group('c', ['b']), group('d', ['c'])] }))
      .toThrow(/The deployment groups (b, d, c|d, c, b|c, b, d) depend on each other in a cycle/)
  })
})

describe('groupOrder', () => {
  it('puts each group after those it depends on, keeping the document order otherwise', () => {
    expect(groupOrder([spec('c', ['b']), spec('a'), spec('b', ['a']), spec('d')])).toEqual(['a', 'b', 'c', 'd'])
  })

  it('refuses a group depending on itself', () => {
    expect(() => groupOrder([spec('a', ['a'])])).toThrow('The deployment groups a depend on each other in a cycle')
  })
})

describe('selectorFilter', () => {
  it('is null (every node) when a selector selects all', () => {
    expect(selectorFilter([selector()])).toBeNull()
    expect(selectorFilter([])).toBeNull()
  })

  it('makes a union of one intersection per selector, labels as a map', () => {
    expect(selectorFilter([selector({ node_names: ['n1'] }), selector({ node_labels: ['role: worker'], node_tags: ['t'], rack_names: ['r1'] })]))
      .toEqual({
        filter_set_type: 'union',
        filter_set: [
          { filter_type: 'intersection', node_names: ['n1'], node_tags: [], node_labels: {}, rack_names: [] },
          { filter_type: 'intersection', node_names: [], node_tags: ['t'], node_labels: { role: 'worker' }, rack_names: ['r1'] }
        ]
      })
  })
})

describe('missedCriteria', () => {
  const nodes = ['n1', 'n2', 'n3', 'n4']
  const three = new Set(['n1', 'n2', 'n3'])

  it('misses none when every criterion is met', () => {
    expect(missedCriteria({ percent_successful_nodes: 75, minimum_successful_nodes: 3, maximum_failed_nodes: 1 }, nodes, three)).toEqual([])
  })

  it('misses none when the group has no criteria or no nodes', () => {
    expect(missedCriteria(undefined, nodes, new Set())).toEqual([])
    expect(missedCriteria({ minimum_successful_nodes: 2 }, [], new Set())).toEqual([])
  })

  it('names a missed percent_successful_nodes', () => {
    expect(missedCriteria({ percent_successful_nodes: 80 }, nodes, three)).toEqual(['percent_successful_nodes: 75 < 80'])
  })

  it('names a missed minimum_successful_nodes', () => {
    expect(missedCriteria({ minimum_successful_nodes: 4 }, nodes, three)).toEqual(['minimum_successful_nodes: 3 < 4'])
  })

  it('names a missed maximum_failed_nodes', () => {
    expect(missedCriteria({ maximum_failed_nodes: 0 }, nodes, three)).toEqual(['maximum_failed_nodes: 1 > 0'])
  })

  it('counts only the group\'s own nodes among the successes', () => {
    expect(missedCriteria({ percent_successful_nodes: 100 }, ['n1', 'n2'], new Set(['n1', 'n9'])))
      .toEqual(['percent_successful_nodes: 50 < 100'])
  })
})
