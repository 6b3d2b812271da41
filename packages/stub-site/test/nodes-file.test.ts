import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseNodesFile } from '../src/nodes-file.ts'
import { EXAMPLE_NODES_FILE } from './helpers/site.ts'

describe('parseNodesFile', () => {
  it('reads the example file shipped with the package', () => {
    const nodes = parseNodesFile(readFileSync(EXAMPLE_NODES_FILE, 'utf8'))
    expect(nodes.map((n) => n.hostname)).toEqual(['rack1-n01', 'rack1-n02', 'rack1-n03', 'rack2-n01'])
    expect(nodes[0]).toMatchObject({ status_name: 'Deployed', power_state: 'on', labels: { 'ucp-control-plane': 'enabled' } })
  })

  it('takes a bare list, and an empty file as no nodes', () => {
    expect(parseNodesFile('- hostname: a\n- hostname: b\n')).toEqual([{ hostname: 'a' }, { hostname: 'b' }])
    expect(parseNodesFile('')).toEqual([])
  })

  it('refuses unknown statuses and fields, duplicates and invalid labels', () => {
    expect(() => parseNodesFile('- hostname: a\n  status_name: Prepared\n', 'f.yaml')).toThrow('f.yaml is not a list of nodes')
    expect(() => parseNodesFile('- hostname: a\n  colour: red\n')).toThrow('is not a list of nodes')
    expect(() => parseNodesFile('- hostname: a\n- hostname: a\n')).toThrow('node a is listed twice')
    expect(() => parseNodesFile('- hostname: a\n  labels: {"bad key": x}\n')).toThrow('node a: metadata.labels Invalid value: "bad key"')
  })
})
