// Turns the committed design's baremetal node documents (drydock/BaremetalNode/v1) into node seeds.
import type { Labels, SeedNode } from '../schemas/nodes.ts'
import { labelKeyProblem, labelValueProblem } from './labels.ts'

export const BAREMETAL_NODE_SCHEMA = 'drydock/BaremetalNode/v1'

function record (value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {}
}

function text (value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function validLabels (source: unknown): Labels {
  const labels: Labels = {}
  for (const [key, value] of Object.entries(record(source))) {
    // a label Kubernetes would refuse is left out rather than failing the whole node
    if (typeof value === 'string' && labelKeyProblem(key) === undefined && labelValueProblem(value) === undefined) labels[key] = value
  }
  return labels
}

/**
 * The seed for one BaremetalNode document, or undefined when it is not one (abstract, no name).
 * Drydock's node design: `data.addressing[]` is `{network, address}` (`dhcp` means none), the out-of-band
 * network is `data.oob.network`, the boot network is `pxe`; Kubernetes labels come from
 * `data.metadata.owner_data`, what Drydock applies to the node (its schema has no `data.labels`).
 */
export function seedFromBaremetalNode (document: unknown): SeedNode | undefined {
  const doc = record(document)
  if (doc.schema !== BAREMETAL_NODE_SCHEMA) return undefined
  const metadata = record(doc.metadata)
  const hostname = text(metadata.name)
  if (hostname === undefined || record(metadata.layeringDefinition).abstract === true) return undefined
  const data = record(doc.data)
  const oobNetwork = text(record(data.oob).network) ?? 'oob'
  const addresses = (Array.isArray(data.addressing) ? data.addressing : [])
    .map((entry) => ({ network: text(record(entry).network) ?? '', address: text(record(entry).address) ?? text(record(entry).ip) ?? '' }))
    .filter((entry) => entry.address !== '' && entry.address !== 'dhcp')
  const powerAddress = addresses.find((a) => a.network === oobNetwork)?.address
  const hostAddresses = addresses.filter((a) => a.network !== oobNetwork)
  const bootIp = hostAddresses.find((a) => a.network === 'pxe')?.address ?? hostAddresses[0]?.address
  const internalIp = hostAddresses.find((a) => a.network !== 'pxe')?.address ?? bootIp
  const seed: SeedNode = { hostname, labels: validLabels(record(data.metadata).owner_data) }
  if (powerAddress !== undefined) seed.power_address = powerAddress
  if (bootIp !== undefined) seed.boot_ip = bootIp
  if (internalIp !== undefined) seed.internal_ip = internalIp
  return seed
}
