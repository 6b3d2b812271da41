// A try's log as text, from the structured messages of Airflow 3.1 and of 3.2 and later, which differ in how they
// list the log's sources and in the identity keys every line carries.
import { describe, expect, it } from 'vitest'
import { logText } from '../../src/clients/engine-logs.ts'

describe('logText', () => {
  it("renders 3.1's source group (its sources as a key) and a line with its extra keys", () => {
    expect(logText([
      { event: '::group::Log message source details', sources: ['/logs/attempt=1.log'] },
      { event: '::endgroup::' },
      { timestamp: '2026-11-26T06:58:06.713Z', event: 'hello', level: 'info', logger: 'task' }
    ])).toBe('Log message source details: /logs/attempt=1.log\n[2026-11-26T06:58:06.713Z] INFO - hello logger=task\n')
  })

  it("renders 3.3's sources as bare lines and leaves out the task instance's identity on every line", () => {
    expect(logText([
      { event: '::group::Log message source details' },
      { event: '/logs/attempt=1.log' },
      { event: '::endgroup::' },
      {
        timestamp: '2026-11-26T06:58:49.997Z',
        event: 'DAG bundles loaded',
        level: 'info',
        ti_id: '01a216a6',
        try_number: 1,
        map_index: -1,
        task_id: 'a',
        dag_id: 'hello',
        run_id: 'r1',
        logger: 'airflow.dag_processing'
      }
    ])).toBe('Log message source details\n/logs/attempt=1.log\n[2026-11-26T06:58:49.997Z] INFO - DAG bundles loaded logger=airflow.dag_processing\n')
  })

  it('keeps plain-string content as it is', () => {
    expect(logText(['one', 'two'])).toBe('one\ntwo\n')
  })
})
