// The console's logic for what the run view tells beside its steps, without a browser: what a paused run will do, the
// step filter and search, the run's times and its page in the engine's UI, and the nodes' design labels.
import { describe, expect, it } from 'vitest'
import { pauseNote, pauseWarning } from '../../console/action-state.js'
import { designLabels, labelTexts, mappingAt } from '../../console/node-labels.js'
import { engineRunUrl, runDurationText, workflowsSince } from '../../console/run-facts.js'
import { stateGroupOf, stepShown } from '../../console/steps.js'

const steps = (...states) => states.map((state, i) => ({ id: `s${i}`, index: i + 1, state }))

describe('a paused action', () => {
  it('says nothing unless the action is paused', () => {
    for (const lifecycle of ['Processing', 'Complete', 'Failed', 'Pending']) expect(pauseNote(lifecycle, steps('success', 'running'))).toBe(null)
  })

  it('says a pause during the last step leaves the run open until it is unpaused, and once that step ended, that it ends only then', () => {
    expect(pauseNote('Paused', steps('success', 'skipped', 'running'))).toBe('Pause requested while the last step runs: it finishes, and nothing is left ' +
      'to start. The engine then keeps the run open, Paused, until the action is unpaused; unpause (or stop) ends it.')
    expect(pauseNote('Paused', steps('success', 'running', 'queued'))).toMatch(/^Pause requested while the last 2 steps run: they finish, /)
    expect(pauseNote('Paused', steps('success', 'failed', 'success'))).toBe('Paused after the last step: every step has ended, but the engine does not ' +
      'close a paused workflow\'s run. It ends, Complete or Failed, once the action is unpaused.')
  })

  it('counts the steps under way and those that wait; a retry waits too', () => {
    expect(pauseNote('Paused', steps('success', 'running', null, 'none'))).toBe('Paused: the step under way finishes; the 2 steps not started wait until the action is unpaused.')
    expect(pauseNote('Paused', steps('success', 'up_for_retry', null))).toBe('Paused: nothing runs; the 2 steps not started wait until the action is unpaused.')
    expect(pauseNote('Paused', steps('running', 'running', null))).toBe('Paused: the 2 steps under way finish; the step not started waits until the action is unpaused.')
  })
})

describe('a pause asked for', () => {
  it('warns, when nothing is left to start, that it only keeps the run open until the unpause', () => {
    expect(pauseWarning(steps('success', 'running', null))).toBe('Steps that are running finish; nothing new starts until the action is unpaused.')
    expect(pauseWarning(steps('success', 'up_for_retry'))).toBe('Steps that are running finish; nothing new starts until the action is unpaused.')
    expect(pauseWarning([])).toBe('Steps that are running finish; nothing new starts until the action is unpaused.')
    expect(pauseWarning(steps('success', 'skipped', 'running'))).toBe('Nothing is left to start: the steps under way finish whether paused or not, ' +
      'and a pause then only keeps the run open (Paused) until the action is unpaused, which ends it.')
  })
})

describe('the step filter', () => {
  it('sorts states into not started, active, failed and done', () => {
    expect([null, 'none', 'scheduled', 'running', 'up_for_retry', 'failed', 'upstream_failed', 'success', 'skipped'].map(stateGroupOf))
      .toEqual(['pending', 'pending', 'active', 'active', 'active', 'failed', 'failed', 'done', 'done'])
  })

  it('shows the steps of a state group whose id holds every word searched, case aside', () => {
    const step = { id: 'armada_build.armada_post_apply', state: 'running' }
    expect(stepShown(step)).toBe(true)
    expect(stepShown(step, { text: 'ARMADA post' })).toBe(true)
    expect(stepShown(step, { text: 'armada drydock' })).toBe(false)
    expect(stepShown(step, { state: 'active', text: '  ' })).toBe(true)
    expect(stepShown(step, { state: 'failed' })).toBe(false)
    expect(stepShown({ id: 'x', state: null }, { state: 'pending' })).toBe(true)
  })
})

describe('the run\'s times and its page in the engine\'s UI', () => {
  it('counts a run\'s duration to its end, or to now while it runs', () => {
    const start = '2026-01-02 10:00:00.000000'
    const now = Date.parse('2026-01-02T10:01:05Z')
    expect(runDurationText({ start_date: start, end_date: '2026-01-02 10:03:04.000000' }, now)).toBe('3 min 04 s')
    expect(runDurationText({ start_date: start, end_date: null }, now)).toBe('running for 1 min 05 s')
    expect(runDurationText({ start_date: null, end_date: null }, now)).toBe('')
    expect(runDurationText(null, now)).toBe('')
  })

  it('asks for the workflows from a minute before the action, and links Airflow 3\'s page of the run', () => {
    expect(workflowsSince('2026-01-02 10:00:30.123456+00:00')).toBe('2026-01-02T09:59:30.123Z')
    expect(workflowsSince('')).toBe(null)
    expect(engineRunUrl('https://airflow.example:8080/', 'deploy_site', '01KAB')).toBe('https://airflow.example:8080/dags/deploy_site/runs/01KAB')
    expect(engineRunUrl(null, 'deploy_site', '01KAB')).toBe(null)
    expect(engineRunUrl('', 'deploy_site', '01KAB')).toBe(null)
  })
})

describe('the nodes\' design labels', () => {
  const rendered = [
    'schema: drydock/BaremetalNode/v1', 'metadata:', '  schema: metadata/Document/v1', '  name: n0', 'data:', '  host_profile: cp',
    '  addressing:', '  - network: oob', '    address: 10.0.0.1', '  metadata:', '    rack: rack1', '    tags: [control]', '    owner_data:',
    '      node-role: control', "      'kubernetes-etcd': enabled # the etcd members", '  oob:', '    node-role: not-a-label', '---',
    'schema: drydock/BaremetalNode/v1', 'metadata:', '  name: n1', 'data:', '  host_profile: worker', '---',
    'schema: promenade/Genesis/v1', 'metadata:', '  name: genesis', 'data:', '  metadata:', '    owner_data:', '      x: y'
  ].join('\n')

  it('are each BaremetalNode\'s owner_data by host name, and nothing else of the documents', () => {
    const labels = designLabels(rendered)
    expect([...labels.keys()]).toEqual(['n0', 'n1'])
    expect(labels.get('n0')).toEqual({ 'node-role': 'control', 'kubernetes-etcd': 'enabled' })
    expect(labels.get('n1')).toEqual({})
    expect(labelTexts(labels.get('n0'))).toEqual(['kubernetes-etcd=enabled', 'node-role=control'])
    expect(mappingAt('a:\n  b: 1\n  c:\n    d: 2\n', ['a'])).toEqual({ b: '1' })
  })
})
