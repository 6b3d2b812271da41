// The action list's search and a step log's reading without a browser: which actions a search keeps and the
// address it leaves, which log lines are errors, and the name a downloaded log takes.
import { describe, expect, it } from 'vitest'
import { listHash, matchesSearch, searchWords } from '../../console/list-filter.js'
import { isErrorLine, logFileName, logLines } from '../../console/log-lines.js'

const action = { id: '01JNQX5V3R7M2C8TEXAMPLE0AB', name: 'deploy_site', user: 'ops-anna' }

describe('the action list\'s search', () => {
  it('keeps an action whose name, id or user holds every word, case aside', () => {
    expect(matchesSearch(action, '')).toBe(true)
    expect(matchesSearch(action, '   ')).toBe(true)
    expect(matchesSearch(action, 'deploy')).toBe(true)
    expect(matchesSearch(action, 'DEPLOY_SITE')).toBe(true)
    expect(matchesSearch(action, '01jnqx5v')).toBe(true)
    expect(matchesSearch(action, 'anna')).toBe(true)
    expect(matchesSearch(action, 'deploy anna')).toBe(true)
    expect(matchesSearch(action, 'deploy bob')).toBe(false)
    expect(matchesSearch(action, 'update')).toBe(false)
    expect(matchesSearch({ id: 'X1', name: 'test_site' }, 'x1')).toBe(true)
    expect(searchWords('  a  B ')).toEqual(['a', 'b'])
  })

  it('leaves its words in the address, with the lifecycle, escaped', () => {
    expect(listHash('', '')).toBe('#/actions')
    expect(listHash('Failed', '  ')).toBe('#/actions?lifecycle=Failed')
    expect(listHash('', 'ops anna')).toBe('#/actions?q=ops+anna')
    expect(listHash('Complete', 'a&b=c')).toBe('#/actions?lifecycle=Complete&q=a%26b%3Dc')
  })
})

describe('a step\'s log', () => {
  it('marks the lines that tell of an error', () => {
    expect(isErrorLine('[2025-03-02T10:15:06Z] ERROR - Task failed with exception')).toBe(true)
    expect(isErrorLine('[2025-03-02T10:15:06Z] CRITICAL - gone')).toBe(true)
    expect(isErrorLine('Traceback (most recent call last):')).toBe(true)
    expect(isErrorLine('  File "/opt/op.py", line 12, in execute')).toBe(true)
    expect(isErrorLine('RuntimeError: armada_post_apply failed')).toBe(true)
    expect(isErrorLine('airflow.exceptions.AirflowException')).toBe(true)
    expect(isErrorLine('[2025-03-02T10:15:06Z] INFO - Marking task as UP_FOR_RETRY. dag_id=deploy_site')).toBe(true)
    expect(isErrorLine('[2025-03-02T10:15:06Z] INFO - Marking task as SUCCESS. dag_id=deploy_site')).toBe(false)
    expect(isErrorLine('[2025-03-02T10:15:06Z] INFO - no errors found')).toBe(false)
    expect(isErrorLine('')).toBe(false)
  })

  it('is cut into runs of error lines and of other lines that join back into the log', () => {
    const text = ['[t] INFO - start', '[t] INFO - work', 'Traceback (most recent call last):', '  File "a.py", line 1, in x', 'ValueError: no', '[t] INFO - done'].join('\n')
    const runs = logLines(text)
    expect(runs).toEqual([
      { text: '[t] INFO - start\n[t] INFO - work', error: false },
      { text: 'Traceback (most recent call last):\n  File "a.py", line 1, in x\nValueError: no', error: true },
      { text: '[t] INFO - done', error: false }
    ])
    expect(runs.map((r) => r.text).join('\n')).toBe(text)
    expect(logLines('')).toEqual([{ text: '', error: false }])
  })

  it('downloads as <action>-<step>-try<n>.log, with no character a file name should not hold', () => {
    expect(logFileName('01ABC', 'armada_build.armada_post_apply', 2)).toBe('01ABC-armada_build.armada_post_apply-try2.log')
    expect(logFileName('01ABC', '../x y/z', 1)).toBe('01ABC-.._x_y_z-try1.log')
  })
})
