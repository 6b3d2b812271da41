// What the action view says about an action's state, without the DOM: which controls fit it, step states in the
// operator's words, when a message on the page has gone stale, and the spans of a retried step's earlier tries.
import { parseTime } from './dom.js'
import { ENDED, FINISHED } from './steps.js'

/**
 * The controls the orchestrator accepts for an action as last read (`{ action_lifecycle, dag_status }`), by its rule:
 * pause a running run whose workflow is not paused, unpause a queued or running run of a paused workflow (the
 * lifecycle Paused), stop a queued or running run, paused or not. A queued run whose steps have started is running
 * already (its lifecycle says Processing): pause fits it too. An action without a run, or whose run ended, has none.
 */
export function controlsFor (action) {
  const status = String(action?.dag_status ?? 'none').toLowerCase()
  const lifecycle = action?.action_lifecycle
  const inProgress = status === 'queued' || status === 'running'
  const paused = lifecycle === 'Paused' && inProgress
  return {
    pause: !paused && (status === 'running' || (status === 'queued' && lifecycle === 'Processing')),
    unpause: paused,
    stop: inProgress
  }
}

// the engine's step states as an operator reads them; a state not listed shows as the engine says it
const WORDS = {
  none: 'not started',
  scheduled: 'waiting to start',
  queued: 'waiting to start',
  running: 'running',
  success: 'success',
  failed: 'failed',
  up_for_retry: 'will retry',
  up_for_reschedule: 'will run again',
  upstream_failed: 'not run: an earlier step failed',
  skipped: 'skipped',
  removed: 'removed from the workflow',
  restarting: 'restarting',
  deferred: 'waiting on an event',
  paused: 'paused'
}

/** A step state in the operator's words: `upstream_failed` → `not run: an earlier step failed`. */
export function stateWords (state) {
  if (state === null || state === undefined) return WORDS.none
  return WORDS[String(state).toLowerCase()] ?? String(state)
}

// a note (a control accepted) says what just happened, and is old news after a while
export const NOTE_MS = 8000
// a refusal explains the state it was refused in; it goes once the action has moved on, or after a minute
export const REFUSAL_MS = 60000

/**
 * Whether a message shown on the action view no longer holds. `shown`: `{ kind, at, lifecycle }` as it was shown
 * (kind `note`, `refusal` or `poll-error`); `now`: `{ at, lifecycle, readOk }`. A failed read is stale once a read
 * succeeds; a busy message (`asking`) never by itself.
 */
export function isStale (shown, now) {
  if (shown === null || shown === undefined) return false
  if (shown.kind === 'poll-error') return now.readOk === true
  if (shown.kind === 'note') return now.at - shown.at >= NOTE_MS
  if (shown.kind === 'refusal') return now.at - shown.at >= REFUSAL_MS || (now.lifecycle !== undefined && now.lifecycle !== shown.lifecycle)
  return false
}

/** When a message of `kind` shown at `at` goes stale by time alone (ms since the epoch), or null. */
export function expiryOf (kind, at) {
  if (kind === 'note') return at + NOTE_MS
  if (kind === 'refusal') return at + REFUSAL_MS
  return null
}

/**
 * A try's span from its log: the first and last `[timestamp]` heading its lines, as `{ start, end }` in ms, or null
 * when the log dates no line. Earlier tries of a step have ended, so their logs say when they ran.
 */
export function trySpanOf (logText) {
  let start = null
  let end = null
  for (const line of String(logText).split('\n')) {
    const match = /^\[([^\]]+)\]/.exec(line)
    const time = match === null ? null : parseTime(match[1])
    if (time === null) continue
    start ??= time.getTime()
    end = time.getTime()
  }
  return start === null ? null : { start, end }
}

/**
 * A sub-workflow's span from its steps' spans (`{ start, end }`, null start before a step starts), `count` steps in
 * all: it grows (end null) while a step of it runs, or while steps are still to start and the action is not paused;
 * a paused action's group stops at its last step's end.
 */
export function groupSpan (spans, count, paused) {
  const own = spans.filter((span) => span !== undefined && span.start !== null)
  if (own.length === 0) return { start: null, end: null }
  const growing = own.some((span) => span.end === null) || (own.length < count && !paused)
  return { start: Math.min(...own.map((span) => span.start)), end: growing ? null : Math.max(...own.map((span) => span.end)) }
}

/**
 * Who stopped an action that has ended, and when: the latest stop in its command audit (`{ user, datetime }`), or null
 * when it ended otherwise. A stopped run is Failed with the engine's own word (`failed`); this says why.
 */
export function stoppedBy (audit, lifecycle) {
  if (!FINISHED.has(lifecycle)) return null
  return (audit ?? []).filter((e) => e.command === 'stop').at(-1) ?? null
}

/** What a stop did to the steps, in words: the steps under way failed, those not started were skipped. */
export function stopEffect (steps) {
  const states = (steps ?? []).map((s) => (s.state ?? 'none').toLowerCase())
  const skipped = states.filter((s) => s === 'skipped').length
  const failed = states.filter((s) => s === 'failed').length
  const count = (n) => `${n} ${n === 1 ? 'step' : 'steps'}`
  const parts = [
    ...(failed > 0 ? [`${count(failed)} failed`] : []),
    ...(skipped > 0 ? [`${count(skipped)} not run (skipped)`] : [])
  ]
  return parts.length === 0 ? 'Every step had ended.' : `Steps under way were failed and those not started skipped: ${parts.join(', ')}.`
}

/**
 * Whether an action started but the engine has no run of it and nothing of the run was kept (the engine switched or its
 * data replaced): the API then answers lifecycle Pending with no steps, and says why in `start_reason`.
 */
export function runMissing (action) {
  return action?.start_status === 'started' && action?.dag_status == null && typeof action?.start_reason === 'string'
}

/** What an action's lifecycle badge says instead of the lifecycle itself, or undefined: a missing run is no Pending. */
export const lifecycleWords = (action) => runMissing(action) ? 'No run in the engine' : undefined

/** The time of the latest pause in a command audit, when the action is paused (ms), else null. */
export function pausedAt (audit, lifecycle) {
  if (lifecycle !== 'Paused') return null
  const pauses = (audit ?? []).filter((e) => e.command === 'pause').map((e) => parseTime(e.datetime)?.getTime()).filter((t) => t !== undefined)
  return pauses.length === 0 ? null : Math.max(...pauses)
}

// step states of a step the engine still has in hand once it was handed to a worker: it finishes under a pause
const UNDER_WAY = new Set(['running', 'queued', 'restarting'])

/**
 * What a paused action's run will do, in words, from its steps (null when the action is not paused). Airflow pauses
 * the whole workflow: steps under way finish, nothing new starts, and the run is not closed either — a run whose last
 * step ended under a pause stays `running` (Paused here) until the action is unpaused, and only then ends.
 */
export function pauseNote (lifecycle, steps) {
  if (lifecycle !== 'Paused') return null
  const states = (steps ?? []).map((s) => (s.state ?? 'none').toLowerCase())
  const underWay = states.filter((s) => UNDER_WAY.has(s)).length
  const ended = states.filter((s) => ENDED.has(s)).length
  const toStart = states.length - underWay - ended
  const count = (n) => `${n} ${n === 1 ? 'step' : 'steps'}`
  if (toStart > 0) {
    const wait = toStart === 1 ? 'the step not started waits' : `the ${count(toStart)} not started wait`
    const run = underWay === 0 ? 'nothing runs' : underWay === 1 ? 'the step under way finishes' : `the ${count(underWay)} under way finish`
    return `Paused: ${run}; ${wait} until the action is unpaused.`
  }
  if (underWay > 0) {
    return `Pause requested while the last ${underWay === 1 ? 'step runs: it finishes' : `${count(underWay)} run: they finish`}, and nothing is left to start. ` +
      'The engine then keeps the run open, Paused, until the action is unpaused; unpause (or stop) ends it.'
  }
  return 'Paused after the last step: every step has ended, but the engine does not close a paused workflow\'s run. ' +
    'It ends, Complete or Failed, once the action is unpaused.'
}

/**
 * What pausing would do, for its confirmation, from the steps as last read: with nothing left to start, a pause only
 * holds the run open once the steps under way have ended — said before it is asked for.
 */
export function pauseWarning (steps) {
  const states = (steps ?? []).map((s) => (s.state ?? 'none').toLowerCase())
  const left = states.filter((s) => !ENDED.has(s) && !UNDER_WAY.has(s)).length
  if (states.length === 0 || left > 0) return 'Steps that are running finish; nothing new starts until the action is unpaused.'
  return 'Nothing is left to start: the steps under way finish whether paused or not, and a pause then only keeps the ' +
    'run open (Paused) until the action is unpaused, which ends it.'
}
