// What the action view derives from an action's steps, without the DOM: sub-workflows, progress, and where each
// step sits on the action's timeline.

/** Lifecycles after which nothing changes any more. */
export const FINISHED = new Set(['Complete', 'Failed'])

/** Step states that no longer change by themselves (Airflow's finished task states). */
export const ENDED = new Set(['success', 'failed', 'skipped', 'upstream_failed', 'removed'])

/** `preflight.ucp_preflight_check` → `preflight`; `action_xcom` → null (Airflow 3 task groups: `<group>.<task>`). */
export function groupOf (stepId) {
  const dot = stepId.lastIndexOf('.')
  return dot < 0 ? null : stepId.slice(0, dot)
}

/** `preflight.ucp_preflight_check` → `ucp_preflight_check`. */
export const taskOf = (stepId) => stepId.slice(stepId.lastIndexOf('.') + 1)

/**
 * The steps in step order, cut into runs of one sub-workflow each: `{ group, steps }` with group null for the
 * workflow's own steps. A group's steps are consecutive in the step order, so each group is one block.
 */
export function groupSteps (steps) {
  const blocks = []
  for (const step of [...steps].sort((a, b) => a.index - b.index)) {
    const group = groupOf(step.id)
    const last = blocks.at(-1)
    if (last !== undefined && last.group === group) last.steps.push(step)
    else blocks.push({ group, steps: [step] })
  }
  return blocks
}

/**
 * A sub-workflow's state: null before any step started, running while one runs or waits to retry, failed when one
 * failed (none running), skipped when every step was skipped (none ran: a branch not taken, or a stop before the
 * group began), success when all succeeded or some were skipped. `stopped`: the action was stopped, so a group whose
 * steps were partly skipped did not finish its work — it is skipped, not a success.
 */
export function groupState (steps, { stopped = false } = {}) {
  const states = steps.map((s) => s.state)
  if (states.every((s) => s === null || s === undefined || s === 'none')) return null
  if (states.every((s) => s === 'skipped')) return 'skipped'
  if (stopped && states.every((s) => s === 'success' || s === 'skipped')) return states.includes('skipped') ? 'skipped' : 'success'
  if (states.every((s) => s === 'success' || s === 'skipped')) return 'success'
  if (states.some((s) => s === 'running' || s === 'up_for_retry' || s === 'queued' || s === 'scheduled' || s === 'restarting' || s === 'deferred')) return 'running'
  if (states.some((s) => s === 'failed' || s === 'upstream_failed')) return 'failed'
  return 'running'
}

/** Step states of a step that ended without doing its work: its last try failed, or a step it needed did. */
export const FAILED_STEPS = new Set(['failed', 'upstream_failed'])

/**
 * Steps done, failed and skipped, and steps in all: `{ done, failed, skipped, total }`. A step is done once it ended
 * with its work done; a failed or upstream_failed step is counted as failed, a skipped one (a branch not taken, or
 * not started when the action was stopped) as skipped: neither is ever done.
 */
export function progress (steps) {
  const failed = steps.filter((s) => FAILED_STEPS.has(s.state)).length
  const skipped = steps.filter((s) => s.state === 'skipped').length
  return { done: steps.filter((s) => ENDED.has(s.state) && !FAILED_STEPS.has(s.state) && s.state !== 'skipped').length, failed, skipped, total: steps.length }
}

/** A progress in words: `11 of 17`, `11 of 17, 2 failed`, `3 of 17, 1 failed, 13 skipped`; `unit` goes after the total. */
export function progressText ({ done, failed, skipped = 0, total }, unit = '') {
  const counted = unit === '' ? `${done} of ${total}` : `${done} of ${total} ${unit}`
  return [counted, ...(failed > 0 ? [`${failed} failed`] : []), ...(skipped > 0 ? [`${skipped} skipped`] : [])].join(', ')
}

/**
 * Each step's bar on a timeline from the first start to the last end (or `now` while steps run): `left` and
 * `width` in percent, or null for a step that has not started. Bars of running steps reach `now`.
 */
export function timeline (spans, now) {
  const known = spans.filter((s) => s.start !== null)
  if (known.length === 0) return spans.map(() => null)
  const t0 = Math.min(...known.map((s) => s.start))
  const t1 = Math.max(...known.map((s) => s.end ?? now), t0 + 1)
  const scale = 100 / (t1 - t0)
  return spans.map((s) => {
    if (s.start === null) return null
    const left = (s.start - t0) * scale
    const width = Math.max(((s.end ?? now) - s.start) * scale, 0.6)
    return { left: Math.min(left, 99.4), width: Math.min(width, 100 - Math.min(left, 99.4)) }
  })
}

/** The step filters offered, each with the states it takes in (`all`: every step). */
export const STEP_FILTERS = [
  { value: 'all', label: 'All steps' },
  { value: 'active', label: 'Running or about to' },
  { value: 'failed', label: 'Failed or not run' },
  { value: 'done', label: 'Done' },
  { value: 'pending', label: 'Not started' }
]

/** Which filter a step's state falls under: not started, done (its work done or not needed), failed, or active. */
export function stateGroupOf (state) {
  const s = (state ?? 'none').toLowerCase()
  if (s === 'none') return 'pending'
  if (s === 'success' || s === 'skipped' || s === 'removed') return 'done'
  if (FAILED_STEPS.has(s)) return 'failed'
  return 'active'
}

/**
 * Whether a step is shown under a filter (`state`, a STEP_FILTERS value) and a search (`text`): each word of the
 * search is in the step's id, case aside (`armada post` finds `armada_build.armada_post_apply`).
 */
export function stepShown (step, { state = 'all', text = '' } = {}) {
  if (state !== 'all' && stateGroupOf(step.state) !== state) return false
  const id = String(step.id).toLowerCase()
  return text.toLowerCase().split(/\s+/).filter((word) => word !== '').every((word) => id.includes(word))
}
