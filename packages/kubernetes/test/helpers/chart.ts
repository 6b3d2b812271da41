// What the chart's tests need, decided once when a test file is collected: helm built (bin/build-helm.sh, seconds when
// built already) and, for the tests that install it, the real API server too (helpers/real.ts). A machine that cannot
// build them (no Go, no module proxy) makes each suite report itself skipped, the reason in its name and on the
// console; any other build failure fails the run. Also: reading helm's rendered YAML, and the chart's paths.
import { join } from 'node:path'
import { describe } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { CHART_DIR } from '../../src/chart-schema.ts'
import { buildHelm, HelmUnavailableError } from '../../src/helm.ts'
import { UNAVAILABLE as KUBE_UNAVAILABLE } from './real.ts'

export { CHART_DIR }
export const HA_VALUES = join(CHART_DIR, 'ci', 'ha-postgres-values.yaml')

async function helmOrReason (): Promise<{ binary?: string, reason?: string }> {
  try {
    return { binary: await buildHelm((line) => { console.log(line) }) }
  } catch (error) {
    if (error instanceof HelmUnavailableError) return { reason: error.message }
    throw error
  }
}

const helm = await helmOrReason()
/** The helm binary; '' when it could not be built here (the suites are skipped then). */
export const HELM = helm.binary ?? ''
if (helm.reason !== undefined) console.warn(`chart tests skipped: ${helm.reason}`)

/** A describe that needs helm (and, with `kube`, the real API server), or is skipped visibly with the reason. */
export function onHelm (title: string, options: { kube: boolean }, body: () => void): void {
  const reason = helm.reason ?? (options.kube ? KUBE_UNAVAILABLE : undefined)
  const named = `${title} (helm${options.kube ? ', real kube-apiserver' : ''})`
  if (reason === undefined) describe(named, body)
  else describe.skip(`${named} — skipped: ${reason}`, body)
}

export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
    resourceVersion?: string
  }
  [field: string]: unknown
}

/** The objects of a rendered manifest (helm template's output), empty documents left out. */
export function manifestObjects (text: string): KubeObject[] {
  return parseAllDocuments(text).map((doc) => doc.toJS() as KubeObject | null).filter((o): o is KubeObject => o !== null)
}

/** The one object of that kind and name; throws naming what there is otherwise. */
export function find (objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name)
  if (found === undefined) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`)
  return found
}
