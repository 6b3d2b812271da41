// Reads the nodes file (SITE_NODES_FILE): YAML, `nodes: [...]` or a bare list of node seeds.
import { readFileSync } from 'node:fs'
import { ConfigError } from '@slipway/common'
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
    if (problems.length > 0) {
      const listed = problems.map((p) => `${p.field} ${p.message}`).join('; ')
      throw new Error(`${source}: node ${node.hostname}: ${listed}`)
    }
  }
  return nodes
}

/** The nodes of SITE_NODES_FILE; a file that cannot be read or used is a ConfigError naming the variable. */
export function readNodesFile (path: string): SeedNode[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError([`SITE_NODES_FILE: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`])
  }
  try {
    return parseNodesFile(text, path)
  } catch (error) {
    // a YAML error's message carries a code frame below its first line
    throw new ConfigError([`SITE_NODES_FILE: ${String((error as Error).message).split('\n')[0]}`])
  }
}
