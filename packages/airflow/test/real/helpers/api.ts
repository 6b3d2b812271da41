// The orchestrator's API as a user drives it (the admin token, real HTTP), and bounded waits: a wait polls until
// its probe answers, and fails after its deadline saying what it waited for and what it saw last.
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'

export interface Answer {
  status: number
  text: string
  json: <T = Record<string, unknown>>() => T
}

export interface CallOptions { json?: unknown, body?: string, type?: string, marker?: string }

export interface Step {
  id: string
  index: number
  state: string | null
  url: string
  notes: unknown[]
}

export interface Action {
  id: string
  name: string
  parameters: Record<string, unknown>
  dag_id: string
  dag_status: string | null
  dag_execution_date: string | null
  action_lifecycle: string
  steps: Step[]
  validations: Array<Record<string, unknown>>
  command_audit: Array<{ command: string }>
  [field: string]: unknown
}

/** GET /actions/{id}/steps/{step} */
export interface StepDetail {
  task_id: string
  dag_id: string
  state: string | null
  try_number: number
  duration: number | null
  start_date: string | null
  end_date: string | null
  operator: string | null
  [field: string]: unknown
}

/** The body of POST /actions' 201. */
export interface Created { id: string, committed_rev_id: number | null, dag_execution_date: string | null, [field: string]: unknown }

export const FINAL = ['Complete', 'Failed']

/** Every trigger sent again after a 503 trigger_pending, with the reason the engine gave (for the figures). */
export const resentTriggers: string[] = []

/** The action a 503 names as saved with its run not yet confirmed, if it names one. */
function pendingAction (answer: Answer): string | undefined {
  if (answer.status !== 503) return undefined
  const body = answer.json<{ details?: { errorList?: Array<{ action_id?: string, start_status?: string }> } }>()
  return body.details?.errorList?.find((e) => e.start_status === 'trigger_pending')?.action_id
}

export interface Api {
  call: (method: string, path: string, options?: CallOptions) => Promise<Answer>
  /**
   * POST /actions as a careful client sends it: with its own X-Context-Marker, and sent again with the same marker
   * while the orchestrator answers 503 with the action saved and its run not confirmed (`trigger_pending`, as when
   * the engine answered the trigger with a 500), which the orchestrator promises starts no second run. The last answer.
   */
  submit: (name: string, parameters?: Record<string, unknown>) => Promise<Answer>
  /** POST /actions: the new action's id (a 201 is required). */
  create: (name: string, parameters?: Record<string, unknown>) => Promise<string>
  /** POST /actions: the 201's body (the committed revision the action runs on among it). */
  created: (name: string, parameters?: Record<string, unknown>) => Promise<Created>
  action: (id: string) => Promise<Action>
  /** Polls the action until `accept` holds, within `timeoutMs`. */
  actionUntil: (id: string, what: string, accept: (action: Action) => boolean, timeoutMs?: number) => Promise<Action>
  /** Polls until the action is Complete or Failed. */
  finished: (id: string, timeoutMs?: number) => Promise<Action>
  step: (id: string, step: string) => Promise<StepDetail>
  log: (id: string, step: string, tryNumber?: number) => Promise<string>
}

/** Polls `probe` every `everyMs` until it answers something, or fails after `timeoutMs` naming the last thing seen. */
export async function until<T> (what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000, everyMs = 250,
  seen: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined) return value
      lastError = undefined
    } catch (error) {
      lastError = error
    }
    if (Date.now() >= deadline) {
      const last = lastError === undefined ? seen() : `last error: ${(lastError as Error).message}`
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last === '' ? '' : ` (${last})`}`)
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** A one-line picture of an action for failure messages: lifecycle and every step's state. */
export function describeAction (action: Action | undefined): string {
  if (action === undefined) return 'no answer yet'
  return `${action.action_lifecycle}: ${action.steps.map((s) => `${s.id}=${s.state ?? '-'}`).join(' ')}`
}

export function orchestratorApi (baseUrl: string, token: string, callTimeoutMs = 60_000): Api {
  async function call (method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'x-auth-token': token }
    let body = options.body
    if (options.json !== undefined) { body = JSON.stringify(options.json); headers['content-type'] = 'application/json' }
    if (options.type !== undefined) headers['content-type'] = options.type
    if (options.marker !== undefined) headers['x-context-marker'] = options.marker
    const response = await fetch(`${baseUrl}/api/v1.0${path}`, { method, headers, body, signal: AbortSignal.timeout(callTimeoutMs) })
    const text = await response.text()
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T }
  }

  async function submit (name: string, parameters: Record<string, unknown> = {}): Promise<Answer> {
    const marker = randomUUID()
    for (let attempt = 1; ; attempt++) {
      const answer = await call('POST', '/actions', { json: { name, parameters }, marker })
      const pending = pendingAction(answer)
      if (pending === undefined || attempt === 3) return answer
      resentTriggers.push(`${name} ${pending}: ${answer.json<{ reason: string }>().reason.slice(0, 120)}`)
    }
  }

  async function created (name: string, parameters: Record<string, unknown> = {}): Promise<Created> {
    const answer = await submit(name, parameters)
    expect(answer.status, `POST /actions ${name}: ${answer.text}`).toBe(201)
    return answer.json<Created>()
  }

  async function action (id: string): Promise<Action> {
    const answer = await call('GET', `/actions/${id}`)
    expect(answer.status, `GET /actions/${id}: ${answer.text}`).toBe(200)
    return answer.json<Action>()
  }

  async function actionUntil (id: string, what: string, accept: (a: Action) => boolean, timeoutMs = 180_000): Promise<Action> {
    let last: Action | undefined
    return await until(`action ${id} ${what}`, async () => {
      last = await action(id)
      return accept(last) ? last : undefined
    }, timeoutMs, 500, () => `last seen ${describeAction(last)}`)
  }

  async function step (id: string, stepId: string): Promise<StepDetail> {
    const answer = await call('GET', `/actions/${id}/steps/${stepId}`)
    expect(answer.status, `GET step ${stepId}: ${answer.text}`).toBe(200)
    return answer.json<StepDetail>()
  }

  async function log (id: string, stepId: string, tryNumber?: number): Promise<string> {
    const answer = await call('GET', `/actions/${id}/steps/${stepId}/logs${tryNumber === undefined ? '' : `?try=${tryNumber}`}`)
    expect(answer.status, `GET log of ${stepId}: ${answer.text.slice(0, 500)}`).toBe(200)
    return answer.text
  }

  return {
    call,
    submit,
    create: async (name, parameters) => (await created(name, parameters)).id,
    created,
    action,
    actionUntil,
    finished: async (id, timeoutMs) => await actionUntil(id, 'to finish', (a) => FINAL.includes(a.action_lifecycle), timeoutMs),
    step,
    log
  }
}
