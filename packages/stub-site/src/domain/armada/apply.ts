// One apply of a manifest, as Armada's sync() runs it: chart groups in order, each chart installed when it has no
// release, upgraded when its inputs changed (with the diff), left alone otherwise; a failed release is purged and
// installed again (or, `protected`, left to the operator); tests after each deploy; a failure stops after its group.
import type { ApplyMessage, ArmadaRelease } from '../../schemas/armada.ts'
import { diffInputs, pyRepr } from './diff.ts'
import { ApplyFailedError } from './errors.ts'
import { isMapping, type BuiltChart, type BuiltGroup, type BuiltManifest } from './manifest.ts'
import type { ArmadaFaultSettings, ReleaseStore } from './releases.ts'

export interface ApplyOptions {
  dryRun: boolean
  enableChartCleanup: boolean
  /** With `wait`, every group is processed in sequence (Armada's force_wait). */
  wait: boolean
}

// what an upgrade compares: the chart itself (its name, source, dependencies, any version) and its values
function inputsOf (chart: BuiltChart): Record<string, unknown> {
  const { chart_name: chartName, source, dependencies, version, values } = chart.data
  const inputs: Record<string, unknown> = { chart: { chart_name: chartName, source, dependencies }, values: values ?? {} }
  if (version !== undefined) (inputs.chart as Record<string, unknown>).version = version
  return inputs
}

// Armada's Test handler: the chart's `test` (a boolean, or `test.enabled`), else the group's test_charts, else on
function testEnabled (chart: BuiltChart, group: BuiltGroup): boolean {
  const test = chart.data.test
  if (typeof test === 'boolean') return test
  if (isMapping(test) && typeof test.enabled === 'boolean') return test.enabled
  return group.testCharts ?? true
}

interface ChartResult { install?: string, upgrade?: string, diff?: Record<string, string>, purge?: string, protected?: string }

export function createApplier (deps: { releases: ReleaseStore, faults: ArmadaFaultSettings, now?: () => Date }) {
  const { releases, faults } = deps
  const now = deps.now ?? (() => new Date())

  /** Deploys one chart; throws (any error) when it fails, leaving its release as Helm would. */
  function deployChart (chart: BuiltChart, group: BuiltGroup, options: ApplyOptions): ChartResult {
    const result: ChartResult = {}
    const inputs = inputsOf(chart)
    const existing = releases.find(chart.releaseName)
    const fails = faults.applyFails(chart.releaseName, chart.release, chart.document)
    const record = (release: Omit<ArmadaRelease, 'name' | 'namespace' | 'chart' | 'updated'>): void => {
      if (options.dryRun) return
      releases.put({ name: chart.releaseName, namespace: chart.namespace, chart: chart.document, ...release, updated: now().toISOString() })
    }
    let deployed = false
    if (existing?.status === 'deployed') {
      const diff = diffInputs(existing.inputs, inputs)
      if (diff !== undefined) {
        result.diff = { [chart.release]: diff }
        const revision = existing.revision + 1
        if (fails && !options.dryRun) {
          record({ inputs, revision, status: 'failed' })
          throw new Error(`upgrade of ${chart.releaseName} failed`)
        }
        record({ inputs, revision, status: 'deployed' })
        result.upgrade = chart.releaseName
        deployed = true
      }
    } else {
      if (existing !== undefined) {
        const protection = chart.data.protected
        if (isMapping(protection)) {
          if (protection.continue_processing === true) return { protected: chart.releaseName }
          throw new Error(`release ${chart.releaseName} is protected and ${existing.status}`)
        }
        if (!options.dryRun) releases.remove(chart.releaseName)
        result.purge = chart.releaseName
      }
      if (fails && !options.dryRun) {
        record({ inputs, revision: 1, status: 'failed' })
        throw new Error(`install of ${chart.releaseName} failed`)
      }
      record({ inputs, revision: 1, status: 'deployed' })
      result.install = chart.releaseName
      deployed = true
    }
    // tests run after a deploy, or again while the last ones failed; never in a dry run
    if (!options.dryRun && testEnabled(chart, group) && (deployed || existing?.test_passed !== true)) {
      const passed = !faults.testFails(chart.releaseName, chart.release, chart.document)
      const current = releases.find(chart.releaseName)
      if (current !== undefined) releases.put({ ...current, test_passed: passed })
      if (!passed) throw new Error(`tests of ${chart.releaseName} failed`)
    }
    return result
  }

  /** Applies `manifest`; answers what was done, or throws ApplyFailedError naming the charts that failed. */
  function apply (manifest: BuiltManifest, options: ApplyOptions): ApplyMessage {
    const message: ApplyMessage = { install: [], upgrade: [], diff: [], purge: [], protected: [] }
    for (const group of manifest.groups) {
      const sequenced = group.sequenced || options.wait
      const results: ChartResult[] = []
      const failures: string[] = []
      for (const chart of group.charts) {
        try {
          results.push(deployChart(chart, group, options))
        } catch {
          failures.push(chart.document)
          if (sequenced) break
        }
      }
      // Armada reports only the failed charts: what the group's other charts did is not in the answer
      if (failures.length > 0) throw new ApplyFailedError(`Exception deploying charts: ${pyRepr(failures)}`)
      for (const result of results) {
        if (result.install !== undefined) message.install.push(result.install)
        if (result.upgrade !== undefined) message.upgrade.push(result.upgrade)
        if (result.diff !== undefined) message.diff.push(result.diff)
        if (result.purge !== undefined) message.purge.push(result.purge)
        if (result.protected !== undefined) message.protected.push(result.protected)
      }
    }
    if (options.enableChartCleanup) {
      const wanted = new Set(manifest.groups.flatMap((g) => g.charts.map((c) => c.releaseName)))
      for (const release of releases.list()) {
        if (wanted.has(release.name) || !release.name.startsWith(manifest.prefix)) continue
        if (!options.dryRun) releases.remove(release.name)
        message.purge.push(release.name)
      }
    }
    return message
  }

  return { apply }
}

export type Applier = ReturnType<typeof createApplier>
