// Running a step of @slipway/steps as an engine would against the real API server: the step library built from
// KUBE_API_URL and KUBE_TOKEN alone (as stub-engine and the step runner build it), a call carrying an action's conf
// and a deployment configuration, and a log that keeps every line.
import { CONFIGURATION_DEFAULTS, createStepLibrary, loadPeersConfig, type StepCall, type StepIo, type StepLibrary } from '@slipway/steps'
import type { Dispatcher } from 'undici'

export interface Io extends StepIo { lines: string[] }
export function recordingIo (): Io {
  const lines: string[] = []
  return { lines, log: (event, level = 'info') => { lines.push(`${level} ${event}`) }, signal: new AbortController().signal }
}

/** A call of the step as an engine hands it: the action's conf and a fast deployment configuration. */
export function stepCall (
  dagId: string, taskId: string, parameters: Record<string, unknown>, configuration: Record<string, unknown> = {}
): StepCall {
  return {
    dagId,
    taskId,
    runId: 'manual__1',
    tryNumber: 1,
    conf: {
      action: { id: '01REALKUBE', name: dagId, user: 'operator', context_marker: 'marker-real', committed_rev_id: 1, parameters },
      // no Deckhand here: the design reference the run carries
      design_ref: 'deckhand+http://deckhand.invalid/api/v1.0/revisions/1/rendered-documents'
    },
    taskStates: {},
    xcom: { deployment_configuration: { ...CONFIGURATION_DEFAULTS, ...configuration } }
  }
}

/** The step library with only Kubernetes configured: the server, a token, and the settings given. */
export function kubeOnlyLibrary (server: string, token: string, dispatcher: Dispatcher, env: Record<string, string> = {}): StepLibrary {
  return createStepLibrary(loadPeersConfig({ KUBE_API_URL: server, KUBE_TOKEN: token, STEP_HTTP_TIMEOUT_MS: '10000', ...env }), { dispatcher })
}

/** Runs one step: its log, and the error it ended with (none when it succeeded). */
export async function runStep (
  steps: StepLibrary, kind: 'destroy_nodes' | 'deployment_status', call: StepCall
): Promise<{ io: Io, error?: Error }> {
  const io = recordingIo()
  try {
    await steps.run(kind, call, io)
    return { io }
  } catch (error) {
    return { io, error: error as Error }
  }
}
