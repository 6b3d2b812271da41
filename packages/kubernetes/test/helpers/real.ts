// Whether this machine can run the real API server, decided once when a test file is collected: the build (seconds
// when built already). A machine that cannot (no Go, no module proxy) makes each suite report itself skipped with
// the reason in its name, and says so on the console; any other build failure fails the run.
import { describe } from 'vitest'
import { buildKubernetes, KubernetesUnavailableError } from '../../src/kubernetes.ts'

async function unavailableReason (): Promise<string | undefined> {
  try {
    await buildKubernetes((line) => { console.log(line) })
    return undefined
  } catch (error) {
    if (error instanceof KubernetesUnavailableError) return error.message
    throw error
  }
}

/** Why the real API server cannot run here, or undefined when it can. */
export const UNAVAILABLE = await unavailableReason()
if (UNAVAILABLE !== undefined) console.warn(`real Kubernetes tests skipped: ${UNAVAILABLE}`)

/** A describe that runs against the real API server, or is skipped visibly, the reason in its name. */
export function onRealKubernetes (title: string, body: () => void): void {
  const named = `${title} (real kube-apiserver)`
  if (UNAVAILABLE === undefined) describe(named, body)
  else describe.skip(`${named} — skipped: ${UNAVAILABLE}`, body)
}
