// The action view's reading of an action's state without a browser: the controls that fit it, step states in the
// operator's words, stale messages, the spans of earlier tries and of a paused action's sub-workflows.
import { describe, expect, it } from 'vitest'
import { NOTE_MS, REFUSAL_MS, controlsFor, expiryOf, groupSpan, isStale, pausedAt, stateWords, stopEffect, stoppedBy, trySpanOf } from '../../console/action-state.js'
import { timeline } from '../../console/steps.js'

describe('the controls', () => {
  const of = (lifecycle, status) => controlsFor({ action_lifecycle: lifecycle, dag_status: status })
  it('pause only a running action not paused, unpause only a paused one, stop one whose run is queued or running', () => {
    expect(of('Processing', 'running')).toEqual({ pause: true, unpause: false, stop: true })
    expect(of('Paused', 'running')).toEqual({ pause: false, unpause: true, stop: true })
    expect(of('Paused', 'queued')).toEqual({ pause: false, unpause: true, stop: true })
    // a queued run is stopped from its first second; it is paused once it runs
    expect(of('Pending', 'queued')).toEqual({ pause: false, unpause: false, stop: true })
    for (const [lifecycle, status] of [['Pending', null], ['Complete', 'success'], ['Failed', 'failed'], ['Failed', null], ['Unknown (shutdown)', 'shutdown'], [undefined, undefined]]) {
      expect(of(lifecycle, status), String(lifecycle)).toEqual({ pause: false, unpause: false, stop: false })
    }
  })

  it('pause a run read as queued whose steps have started (Processing): the engine runs it already', () => {
    expect(of('Processing', 'queued')).toEqual({ pause: true, unpause: false, stop: true })
  })
})

describe('a stopped action', () => {
  const audit = [{ command: 'invoke', user: 'a' }, { command: 'stop', user: 'op', datetime: '2026-01-02 03:04:05.000000+00:00' }]
  it('says who stopped it and when once it has ended, from its command audit', () => {
    expect(stoppedBy(audit, 'Failed')).toEqual(audit[1])
    expect(stoppedBy(audit, 'Processing')).toBe(null)
    expect(stoppedBy(audit.slice(0, 1), 'Failed')).toBe(null)
  })

  it('says what the stop did to its steps', () => {
    const steps = ['success', 'failed', 'skipped', 'skipped'].map((state) => ({ state }))
    expect(stopEffect(steps)).toBe('Steps under way were failed and those not started skipped: 1 step failed, 2 steps not run (skipped).')
    expect(stopEffect([{ state: 'success' }])).toBe('Every step had ended.')
  })
})

describe('step states in the operator\'s words', () => {
  it('say what the engine\'s words mean', () => {
    expect(stateWords('queued')).toBe('waiting to start')
    expect(stateWords('scheduled')).toBe('waiting to start')
    expect(stateWords('up_for_retry')).toBe('will retry')
    expect(stateWords('upstream_failed')).toBe('not run: an earlier step failed')
    expect(stateWords(null)).toBe('not started')
    expect(stateWords('none')).toBe('not started')
    expect(stateWords('success')).toBe('success')
    expect(stateWords('UP_FOR_RETRY')).toBe('will retry')
    // a state the console does not know shows as the engine says it
    expect(stateWords('something_new')).toBe('something_new')
  })
})

describe('a message on the action view', () => {
  const at = 1_000_000
  it('a control accepted is old news after a while', () => {
    const note = { kind: 'note', at, lifecycle: 'Processing' }
    expect(isStale(note, { at: at + NOTE_MS - 1, lifecycle: 'Paused', readOk: true })).toBe(false)
    expect(isStale(note, { at: at + NOTE_MS, lifecycle: 'Paused', readOk: true })).toBe(true)
    expect(expiryOf('note', at)).toBe(at + NOTE_MS)
  })

  it('a refusal goes once the action has moved on from the state it was refused in, or after a minute', () => {
    const refusal = { kind: 'refusal', at, lifecycle: 'Processing' }
    expect(isStale(refusal, { at: at + 10_000, lifecycle: 'Processing', readOk: true })).toBe(false)
    expect(isStale(refusal, { at: at + 10_000, lifecycle: 'Paused', readOk: true })).toBe(true)
    expect(isStale(refusal, { at: at + REFUSAL_MS, lifecycle: 'Processing', readOk: true })).toBe(true)
    expect(expiryOf('refusal', at)).toBe(at + REFUSAL_MS)
  })

  it('a failed read goes with the next good one; a question being asked and no message never go by themselves', () => {
    expect(isStale({ kind: 'poll-error', at }, { at: at + 1, readOk: false })).toBe(false)
    expect(isStale({ kind: 'poll-error', at }, { at: at + 1, readOk: true })).toBe(true)
    expect(isStale({ kind: 'asking', at, lifecycle: 'Processing' }, { at: at + 10 * REFUSAL_MS, lifecycle: 'Failed', readOk: true })).toBe(false)
    expect(isStale(null, { at, readOk: true })).toBe(false)
    expect(expiryOf('asking', at)).toBe(null)
  })
})

describe('the timeline', () => {
  it('dates an earlier try by the first and last timestamps heading its log\'s lines', () => {
    const log = [
      '[2025-03-02T10:15:06.100Z] INFO - Running task',
      'Traceback (most recent call last):',
      '  File "x.py", line 1, in run',
      '[2025-03-02T10:15:08.600Z] ERROR - Task failed',
      'RuntimeError: no'
    ].join('\n')
    expect(trySpanOf(log)).toEqual({ start: Date.parse('2025-03-02T10:15:06.100Z'), end: Date.parse('2025-03-02T10:15:08.600Z') })
    expect(trySpanOf('no dates here\n[not a date] x')).toBe(null)
    expect(trySpanOf('')).toBe(null)
  })

  it('a sub-workflow grows while a step runs or steps are still to start, and stops growing while the action is paused', () => {
    const done = [{ start: 10, end: 20 }, { start: 20, end: 35 }]
    const waiting = [...done, { start: null, end: null }]
    expect(groupSpan(waiting, 3, false)).toEqual({ start: 10, end: null })
    expect(groupSpan(waiting, 3, true)).toEqual({ start: 10, end: 35 })
    // a step still running when the pause came runs on (pause starts nothing new, stops nothing)
    expect(groupSpan([{ start: 10, end: 20 }, { start: 20, end: null }], 3, true)).toEqual({ start: 10, end: null })
    expect(groupSpan(done, 2, false)).toEqual({ start: 10, end: 35 })
    expect(groupSpan([{ start: null, end: null }, undefined], 2, false)).toEqual({ start: null, end: null })
  })

  it('places every try and the pause on the same scale', () => {
    // two tries of one step (the first failed), then the pause
    const bars = timeline([{ start: 500, end: 1000 }, { start: 0, end: 400 }, { start: 800, end: 800 }], 5000)
    expect(bars).toEqual([{ left: 50, width: 50 }, { left: 0, width: 40 }, { left: 80, width: 0.6 }])
  })

  it('marks a pause at the latest pause of the command audit, only while the action is paused', () => {
    const audit = [
      { command: 'invoke', datetime: '2025-03-02 10:00:00.000000+00:00' },
      { command: 'pause', datetime: '2025-03-02 10:01:00.000000+00:00' },
      { command: 'unpause', datetime: '2025-03-02 10:02:00.000000+00:00' },
      { command: 'pause', datetime: '2025-03-02 10:03:00.000000+00:00' }
    ]
    expect(pausedAt(audit, 'Paused')).toBe(Date.parse('2025-03-02T10:03:00Z'))
    expect(pausedAt(audit, 'Processing')).toBe(null)
    expect(pausedAt([], 'Paused')).toBe(null)
    expect(pausedAt(undefined, 'Paused')).toBe(null)
  })
})
