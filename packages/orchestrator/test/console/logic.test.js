// The console's reading of the API without a browser: sub-workflows and progress from step lists, timelines,
// the API's timestamp shapes, the store's YAML, and which permission a refused call lacked.
import { describe, expect, it } from 'vitest'
import { ApiError, rulesOf } from '../../console/api.js'
import { durationText, parseTime, utcText } from '../../console/dom.js'
import { groupState, groupSteps, progress, progressText, timeline } from '../../console/steps.js'
import { factsOf, splitDocuments, withoutBookkeeping } from '../../console/yaml-docs.js'

const step = (index, id, state = null) => ({ index, id, state })

describe('steps', () => {
  it('cuts the step order into the workflow\'s own steps and one block per sub-workflow', () => {
    const steps = [step(3, 'preflight.ucp_preflight_check'), step(1, 'action_xcom'), step(2, 'dag_concurrency_check'),
      step(4, 'deployment_configuration'), step(5, 'drydock_build.verify_site'), step(6, 'drydock_build.prepare_site')]
    expect(groupSteps(steps).map((b) => [b.group, b.steps.map((s) => s.index)])).toEqual([
      [null, [1, 2]], ['preflight', [3]], [null, [4]], ['drydock_build', [5, 6]]
    ])
  })

  it('derives a sub-workflow\'s state as the workflows API does', () => {
    expect(groupState([{ state: null }, { state: null }])).toBe(null)
    expect(groupState([{ state: 'success' }, { state: 'skipped' }])).toBe('success')
    expect(groupState([{ state: 'success' }, { state: 'running' }])).toBe('running')
    expect(groupState([{ state: 'failed' }, { state: 'up_for_retry' }])).toBe('running')
    expect(groupState([{ state: 'failed' }, { state: 'upstream_failed' }])).toBe('failed')
    expect(groupState([{ state: 'success' }, { state: null }])).toBe('running')
  })

  it('calls a group whose steps were all skipped skipped, and one a stop cut short skipped too, never a success', () => {
    expect(groupState([{ state: 'skipped' }, { state: 'skipped' }])).toBe('skipped')
    expect(groupState([{ state: 'success' }, { state: 'skipped' }], { stopped: true })).toBe('skipped')
    expect(groupState([{ state: 'success' }, { state: 'success' }], { stopped: true })).toBe('success')
    expect(groupState([{ state: 'failed' }, { state: 'skipped' }], { stopped: true })).toBe('failed')
  })

  it('counts steps that ended with their work done as done, failed and skipped ones apart, never done', () => {
    expect(progress([step(1, 'a', 'success'), step(2, 'b', 'upstream_failed'), step(3, 'c', 'running'), step(4, 'd')])).toEqual({ done: 1, failed: 1, skipped: 0, total: 4 })
    // update_software's armada build failing for good: 13 steps, the engine's run a success
    const states = ['success', 'success', 'success', 'success', 'success', 'success', 'failed', 'upstream_failed',
      'upstream_failed', 'upstream_failed', 'upstream_failed', 'success', 'success']
    const counts = progress(states.map((s, i) => step(i + 1, `s${i}`, s)))
    expect(counts).toEqual({ done: 8, failed: 5, skipped: 0, total: 13 })
    // a skipped step did no work: counted apart, never done (a stopped run's steps not started are skipped)
    expect(progress([step(1, 'a', 'success'), step(2, 'b', 'skipped'), step(3, 'c', 'removed')])).toEqual({ done: 2, failed: 0, skipped: 1, total: 3 })
  })

  it('words a progress, naming failed steps only when there are some', () => {
    expect(progressText({ done: 8, failed: 5, total: 13 })).toBe('8 of 13, 5 failed')
    expect(progressText({ done: 8, failed: 5, total: 13 }, 'steps done')).toBe('8 of 13 steps done, 5 failed')
    expect(progressText({ done: 17, failed: 0, total: 17 }, 'steps done')).toBe('17 of 17 steps done')
    expect(progressText({ done: 0, failed: 0, total: 0 })).toBe('0 of 0')
    expect(progressText({ done: 1, failed: 1, skipped: 2, total: 4 }, 'steps done')).toBe('1 of 4 steps done, 1 failed, 2 skipped')
  })

  it('places each started step on a timeline from the first start to the last end, running ones up to now', () => {
    const bars = timeline([{ start: 0, end: 500 }, { start: 500, end: null }, { start: null, end: null }], 1000)
    expect(bars[0]).toEqual({ left: 0, width: 50 })
    expect(bars[1]).toEqual({ left: 50, width: 50 })
    expect(bars[2]).toBe(null)
    expect(timeline([{ start: null, end: null }], 5)).toEqual([null])
  })
})

describe('times', () => {
  it('reads the seed\'s timestamp shapes as UTC', () => {
    const expected = '2025-03-02T10:15:06.482Z'
    expect(parseTime('2025-03-02 10:15:06.482913+00:00')?.toISOString()).toBe(expected)
    expect(parseTime('2025-03-02 10:15:06.482913')?.toISOString()).toBe(expected)
    expect(parseTime('2025-03-02T10:15:07')?.toISOString()).toBe('2025-03-02T10:15:07.000Z')
    expect(parseTime('2025-03-02T12:15:07+02:00')?.toISOString()).toBe('2025-03-02T10:15:07.000Z')
    expect(parseTime(null)).toBe(null)
    expect(parseTime('yesterday')).toBe(null)
    expect(utcText(new Date(expected))).toBe('2025-03-02 10:15:06 UTC')
  })

  it('words durations by their size', () => {
    expect([0.4, 12.2, 184, 3720, null].map(durationText)).toEqual(['0.4 s', '12 s', '3 min 04 s', '1 h 02 min', '—'])
  })
})

describe('the store\'s YAML', () => {
  const text = [
    'id: 16', 'schema: promenade/Genesis/v1', 'metadata:', '  schema: metadata/Document/v1', "  name: 'genesis'",
    '  layeringDefinition:', '    abstract: false', '    layer: site', '  storagePolicy: encrypted', 'data:', '  name: not-this-one',
    'status:', '  bucket: site', '  revision: 2', '---', 'id: 17', 'schema: deckhand/LayeringPolicy/v1', 'metadata:', '  name: layering-policy', 'data: {}', ''
  ].join('\n')

  it('splits documents and reads their schema, name, layer and storage policy', () => {
    const docs = splitDocuments(text)
    expect(docs).toHaveLength(2)
    expect(docs.map(factsOf)).toEqual([
      { schema: 'promenade/Genesis/v1', name: 'genesis', layer: 'site', storagePolicy: 'encrypted' },
      { schema: 'deckhand/LayeringPolicy/v1', name: 'layering-policy', layer: '', storagePolicy: '' }
    ])
    expect(splitDocuments('---\na: 1\n---\n\n')).toEqual(['a: 1'])
  })

  it('leaves out each document\'s id and status, which differ between revisions', () => {
    const stripped = withoutBookkeeping(text)
    expect(stripped).not.toMatch(/^id:|^status:|revision: 2|bucket: site/m)
    expect(stripped).toContain("  name: 'genesis'")
    expect(stripped.split('\n').filter((l) => l === '---')).toHaveLength(1)
  })
})

describe('refusals', () => {
  it('names the policy rule of each call, and the cleartext rule as well when secrets are asked for', () => {
    expect(rulesOf('GET', '/actions')).toEqual(['workflow_orchestrator:list_actions'])
    expect(rulesOf('GET', '/actions/01ARZ3NDEKTSV4RRFFQ69G5FAV/steps/drydock_build.prepare_site/logs?try=2')).toEqual(['workflow_orchestrator:get_action_step_logs'])
    expect(rulesOf('POST', '/actions/01ARZ3NDEKTSV4RRFFQ69G5FAV/control/pause')).toEqual(['workflow_orchestrator:invoke_action_control'])
    expect(rulesOf('GET', '/configdocs/site?version=buffer&cleartext-secrets=true')).toEqual(['workflow_orchestrator:get_configdocs', 'workflow_orchestrator:get_configdocs_cleartext'])
    expect(rulesOf('GET', '/renderedconfigdocs?version=committed&cleartext-secrets=false')).toEqual(['workflow_orchestrator:get_renderedconfigdocs'])
    expect(rulesOf('GET', '/site_statuses')).toEqual(['workflow_orchestrator:get_site_statuses'])
  })

  it('words a 403 by the permission it lacks, and a 409 by its message and reason', () => {
    expect(new ApiError(403, 'Forbidden', 'Credentials do not permit access', ['workflow_orchestrator:get_site_statuses']).describe())
      .toBe('Forbidden: your token lacks the permission workflow_orchestrator:get_site_statuses.')
    expect(new ApiError(403, 'Forbidden', 'Credentials do not permit access', ['a', 'b']).describe())
      .toBe('Forbidden: this needs the permissions a and b; your token lacks at least one.')
    expect(new ApiError(409, 'Unable to unpause action', 'The action is not paused').describe()).toBe('Unable to unpause action: The action is not paused')
    expect(new ApiError(404, 'Action not found', 'Action not found').describe()).toBe('Action not found')
  })
})
