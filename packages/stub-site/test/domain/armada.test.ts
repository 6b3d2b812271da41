import { describe, expect, it } from 'vitest'
import { diffInputs } from '../../src/domain/armada/diff.ts'
import { applyOverrides, buildManifest, toDocuments } from '../../src/domain/armada/manifest.ts'
import { parseFaultList } from '../../src/domain/armada/releases.ts'
import { validateArmadaDocuments } from '../../src/domain/armada/validate.ts'
import { chart, chartGroup, manifest, siteDesign } from '../helpers/armada.ts'

describe('diffInputs', () => {
  it('answers undefined when nothing changed, whatever the key order', () => {
    expect(diffInputs({ values: { a: 1, b: [1, 2] } }, { values: { b: [1, 2], a: 1 } })).toBeUndefined()
  })

  it('names changed, added and removed values by their path', () => {
    const diff = diffInputs(
      { chart: { source: { reference: 'v1' } }, values: { a: 1, gone: true, list: [1] } },
      { chart: { source: { reference: 'v2' } }, values: { a: 1, added: 'x', list: [1, 2] } }
    )
    expect(diff).toBe("{'values_changed': {\"root['chart']['source']['reference']\": {'new_value': 'v2', 'old_value': 'v1'}}, " +
      "'dictionary_item_added': [\"root['values']['added']\"], 'dictionary_item_removed': [\"root['values']['gone']\"], " +
      "'iterable_item_added': {\"root['values']['list'][1]\": 2}}")
  })
})

describe('buildManifest', () => {
  it('prefixes each chart\'s release with the manifest\'s release_prefix, groups in the manifest\'s order', () => {
    const built = buildManifest(toDocuments(siteDesign()), 'full-site')
    expect(built.groups.map((g) => [g.name, g.sequenced, g.charts.map((c) => c.releaseName)])).toEqual([
      ['kubernetes', false, ['airship-calico', 'airship-coredns']],
      ['ucp', true, ['airship-keystone', 'airship-shipyard']]
    ])
  })

  it('refuses a chart whose dependency is not in the design', () => {
    const documents = [manifest('m', ['g']), chartGroup('g', ['a']), chart('a', { dependencies: ['helm-toolkit'] })]
    expect(() => buildManifest(toDocuments(documents))).toThrow(/Could not build dependencies for chart a/)
  })
})

describe('applyOverrides', () => {
  it('sets a value as a string, splits one that replaces a list, and leaves the documents given alone', () => {
    const group = chartGroup('g', ['a'])
    const one = chart('a', { values: { hosts: ['x'] } })
    const documents = [group, one]
    const changed = applyOverrides(documents, ['chart:a:values.image.tag=2.0', 'chart:a:values.hosts=y, z', 'chart_group:g:chart_group=a,b'])
    expect((changed[1] as { data: { values: unknown } }).data.values).toEqual({ hosts: ['y', 'z'], image: { tag: '2.0' } })
    expect((changed[0] as { data: { chart_group: unknown } }).data.chart_group).toEqual(['a', 'b'])
    expect(one.data.values).toEqual({ hosts: ['x'] })
  })

  it('refuses an override of a document that is not there', () => {
    expect(() => applyOverrides([chart('a')], ['chart:b:values.x=1'])).toThrow(/Unable to find chart document named b/)
  })
})

describe('validateArmadaDocuments', () => {
  it('finds nothing wrong in a design without armada documents', () => {
    expect(validateArmadaDocuments([{ schema: 'drydock/BaremetalNode/v1', metadata: { name: 'n0' }, data: {} }])).toEqual([])
  })

  it('checks every manifest of the design, named by the document that failed', () => {
    const messages = validateArmadaDocuments([...siteDesign(), manifest('other', ['kubernetes', 'missing'])])
    expect(messages).toEqual([expect.objectContaining({ name: 'ARM001', error: true, message: expect.stringContaining('"missing"') })])
  })
})

describe('parseFaultList', () => {
  it('reads names, and 1, true or * as every release', () => {
    expect(parseFaultList('')).toEqual([])
    expect(parseFaultList('0')).toEqual([])
    expect(parseFaultList('1')).toEqual(['*'])
    expect(parseFaultList('TRUE')).toEqual(['*'])
    expect(parseFaultList(' a , b,')).toEqual(['a', 'b'])
  })
})
