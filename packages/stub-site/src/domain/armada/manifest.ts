// Builds the one Armada manifest an apply or a test run works on, as Armada's Manifest handler does: the
// armada/Manifest/v1 chosen by target_manifest (or the only one), its chart groups and their charts, release names
// prefixed with the manifest's release_prefix; and Armada's `--set`-style overrides.
import { manifestErrors, ArmadaError } from './errors.ts'

export const CHART_SCHEMA = 'armada/Chart/v1'
export const GROUP_SCHEMA = 'armada/ChartGroup/v1'
export const MANIFEST_SCHEMA = 'armada/Manifest/v1'

export type Mapping = Record<string, unknown>

export interface Document { schema: string, name: string, data: Mapping }

export interface BuiltChart {
  /** The chart document's metadata.name. */
  document: string
  /** `release` as the chart names it; the diff entries are keyed by it. */
  release: string
  /** `<release_prefix>-<release>`: the Helm release. */
  releaseName: string
  namespace: string
  data: Mapping
}

export interface BuiltGroup {
  name: string
  sequenced: boolean
  /** The group's (deprecated) test_charts; undefined: not set. */
  testCharts: boolean | undefined
  charts: BuiltChart[]
}
export interface BuiltManifest { name: string, prefix: string, groups: BuiltGroup[] }

export const isMapping = (value: unknown): value is Mapping => typeof value === 'object' && value !== null && !Array.isArray(value)

const text = (value: unknown): string => typeof value === 'string' ? value : ''

/** Armada's release_prefixer. */
export const prefixed = (prefix: string, release: string): string => `${prefix}-${release}`

/** The documents of a design (a YAML stream, or one list of documents) as Armada reads them; anything else is skipped. */
export function toDocuments (values: unknown[]): Document[] {
  const flat = values.length > 0 && Array.isArray(values[0]) ? values[0] as unknown[] : values
  return flat.filter(isMapping).map((doc) => ({
    schema: text(doc.schema),
    name: text(isMapping(doc.metadata) ? doc.metadata.name : undefined),
    data: isMapping(doc.data) ? doc.data : {}
  }))
}

const named = (documents: Document[], schema: string, name: string): Document | undefined =>
  documents.find((d) => d.schema === schema && d.name === name)

function buildChart (documents: Document[], chart: Document, prefix: string): BuiltChart {
  for (const dependency of Array.isArray(chart.data.dependencies) ? chart.data.dependencies : []) {
    if (typeof dependency === 'string' && named(documents, CHART_SCHEMA, dependency) === undefined) {
      throw manifestErrors.missingDependency(chart.name)
    }
  }
  const release = text(chart.data.release)
  return { document: chart.name, release, releaseName: prefixed(prefix, release), namespace: text(chart.data.namespace), data: chart.data }
}

/** The manifest `target` names (or the only one), resolved; Armada's ManifestException wording when it cannot be. */
export function buildManifest (documents: Document[], target?: string): BuiltManifest {
  const manifests = documents.filter((d) => d.schema === MANIFEST_SCHEMA && (target === undefined || d.name === target))
  if (manifests.length > 1) throw manifestErrors.multiple()
  const manifest = manifests[0]
  const hasCharts = documents.some((d) => d.schema === CHART_SCHEMA)
  const hasGroups = documents.some((d) => d.schema === GROUP_SCHEMA)
  if (manifest === undefined || !hasCharts || !hasGroups) throw manifestErrors.incomplete()
  const prefix = text(manifest.data.release_prefix)
  const groupNames = Array.isArray(manifest.data.chart_groups) ? manifest.data.chart_groups : []
  const groups = groupNames.filter((g): g is string => typeof g === 'string').map((groupName): BuiltGroup => {
    const group = named(documents, GROUP_SCHEMA, groupName)
    if (group === undefined) throw manifestErrors.missingGroup(groupName)
    const chartNames = Array.isArray(group.data.chart_group) ? group.data.chart_group : []
    const charts = chartNames.filter((c): c is string => typeof c === 'string').map((chartName) => {
      const chart = named(documents, CHART_SCHEMA, chartName)
      if (chart === undefined) throw manifestErrors.groupWithMissingChart(groupName)
      return buildChart(documents, chart, prefix)
    })
    const testCharts = typeof group.data.test_charts === 'boolean' ? group.data.test_charts : undefined
    return { name: groupName, sequenced: group.data.sequenced === true, testCharts, charts }
  })
  return { name: manifest.name, prefix, groups }
}

const OVERRIDE_TYPES: Record<string, string> = { chart: CHART_SCHEMA, chart_group: GROUP_SCHEMA, manifest: MANIFEST_SCHEMA }

const overrideError = (text: string): ArmadaError => new ArmadaError(500, `Unhandled Exception raised: ${text}`, { retry: true })

/**
 * Applies Armada's overrides (`<chart|chart_group|manifest>:<name>:<dotted.path>=<value>`) to a copy of the
 * design's documents. The value is a string, as Armada sets it; a list it replaces is split at commas.
 */
export function applyOverrides (raws: unknown[], overrides: string[]): unknown[] {
  if (overrides.length === 0) return raws
  const result = structuredClone(raws)
  for (const override of overrides) {
    const at = override.indexOf('=')
    const [type = '', name = '', path = ''] = (at < 0 ? override : override.slice(0, at)).split(':')
    const schema = OVERRIDE_TYPES[type]
    if (schema === undefined || at < 0 || path === '') throw overrideError(`Invalid override ${JSON.stringify(override)}`)
    const document = result.find((raw): raw is Mapping => isMapping(raw) && raw.schema === schema &&
      isMapping(raw.metadata) && raw.metadata.name === name)
    if (document === undefined) throw overrideError(`Unable to find ${type} document named ${name} to override`)
    const value = override.slice(at + 1)
    if (value === '') continue
    if (!isMapping(document.data)) document.data = {}
    const keys = path.split('.')
    let node = document.data as Mapping
    for (const key of keys.slice(0, -1)) {
      if (!isMapping(node[key])) node[key] = {}
      node = node[key] as Mapping
    }
    const last = keys[keys.length - 1] ?? ''
    node[last] = Array.isArray(node[last]) ? value.split(',').map((v) => v.trim()) : value
  }
  return result
}
