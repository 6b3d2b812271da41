// Reads the nodes file (SITE_NODES_FILE): YAML, `nodes: [...]` or a bare list of node seeds.
import { readFileSync } from 'node:fs'
import { Value } from 'typebox/value'
import { parse } from 'yaml'
import { labelProblems } from './domain/labels.ts'
import { NodesFileSchema, type SeedNode } from './schemas/nodes.ts'

/** Parses the file's text; throws an Error naming every problem (the service refuses to start on a bad file). */
export function parseNodesFile (text: string, source = 'nodes file'): SeedNode[] {
  const data: unknown = parse(text, { maxAliasCount: 1000 }) ?? []
  if (!Value.Check(NodesFileSchema, data)) {
    const problems = [...Value.Errors(NodesFileSchema, data)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`)
    throw new Error(`${source} is not a list of nodes: ${problems.join('; ')}`)
  }
  const nodes = Array.isArray(data) ? data : data.nodes
  const seen = new Set<string>()
  for (const node of nodes) {
    if (seen.has(node.hostname)) throw new Error(`${source}: node ${node.hostname} is listed twice`)
    seen.add(node.hostname)
    const problems = labelProblems(node.labels ?? {})
    if (problems.length > 0) throw new Error(`${source}: node ${node.hostname}: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`)
  }
  return nodes
}

export function readNodesFile (path: string): SeedNode[] {
  return parseNodesFile(readFileSync(path, 'utf8'), path)
}
