// ENGINE_DATA_DIR's layout: one file per run, so that a save writes the runs that changed and never the whole
// history; a run deleted leaves no file; a folder of the earlier one-file layout is read and rewritten; a damaged
// file stops the start with its name.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startTestEngine } from '../helpers/engine.ts'

function dataDir (): string {
  const dir = mkdtempSync(join(tmpdir(), 'stub-engine-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

async function until (what: string, probe: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The run files' numbers, in order. */
const runFiles = (dir: string): string[] => readdirSync(join(dir, 'runs')).sort()

describe('ENGINE_DATA_DIR layout', () => {
  it('writes a run in a file of its own, and leaves a finished run\'s file alone while other runs move', async () => {
    const dir = dataDir()
    const engine = await startTestEngine({ ENGINE_DATA_DIR: dir })
    await engine.trigger('test_site', 'P1')
    await engine.waitRun('test_site', 'P1')
    await engine.close()
    const first = join(dir, 'runs', '1.json')
    const before = statSync(first)
    expect(JSON.parse(readFileSync(first, 'utf8'))).toMatchObject({ seq: 1, dag_id: 'test_site', dag_run_id: 'P1', state: 'success' })

    const again = await startTestEngine({ ENGINE_DATA_DIR: dir })
    await again.trigger('test_site', 'P2')
    await again.waitRun('test_site', 'P2')
    await again.close()
    expect(runFiles(dir)).toEqual(['1.json', '2.json'])
    // every save renames a new file into place: the same inode and time mean P1's file was not written again
    const after = statSync(first)
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs })
    expect(JSON.parse(readFileSync(join(dir, 'engine.json'), 'utf8'))).toMatchObject({ seq: 2 })
  })

  it('removes a deleted run\'s file, and the run stays deleted after a restart', async () => {
    const dir = dataDir()
    const engine = await startTestEngine({ ENGINE_DATA_DIR: dir })
    await engine.trigger('test_site', 'D1')
    await engine.waitRun('test_site', 'D1')
    await engine.trigger('test_site', 'D2')
    await engine.waitRun('test_site', 'D2')
    expect((await engine.call('DELETE', '/api/v2/dags/test_site/dagRuns/D1')).status).toBe(204)
    await engine.close()
    expect(runFiles(dir)).toEqual(['2.json'])
    const again = await startTestEngine({ ENGINE_DATA_DIR: dir })
    expect((await again.call('GET', '/api/v2/dags/test_site/dagRuns/D1')).status).toBe(404)
    expect((await again.call('GET', '/api/v2/dags/test_site/dagRuns/D2')).body.state).toBe('success')
    // the counter goes on from the highest run: a new run never takes a deleted or a kept run's number
    await again.trigger('test_site', 'D3')
    await again.close()
    expect(runFiles(dir)).toEqual(['2.json', '3.json'])
  })

  it('reads a folder of the one-file layout and rewrites it as a file per run', async () => {
    const saved = dataDir()
    const engine = await startTestEngine({ ENGINE_DATA_DIR: saved })
    await engine.trigger('test_site', 'L1')
    await engine.waitRun('test_site', 'L1')
    await engine.close()
    const legacy = dataDir()
    const { seq, dags } = JSON.parse(readFileSync(join(saved, 'engine.json'), 'utf8'))
    const runs = [JSON.parse(readFileSync(join(saved, 'runs', '1.json'), 'utf8'))]
    writeFileSync(join(legacy, 'engine-state.json'), JSON.stringify({ seq, dags, runs }))

    const again = await startTestEngine({ ENGINE_DATA_DIR: legacy })
    expect((await again.call('GET', '/api/v2/dags/test_site/dagRuns/L1')).body.state).toBe('success')
    expect(readdirSync(legacy).sort()).toEqual(['engine.json', 'runs'])
    expect(runFiles(legacy)).toEqual(['1.json'])
  })

  it('keeps an ended run\'s log lines in its file: read from it, and kept when the run is cleared and runs again', async () => {
    const dir = dataDir()
    const engine = await startTestEngine({ ENGINE_DATA_DIR: dir })
    await engine.trigger('test_site', 'G1')
    await engine.waitRun('test_site', 'G1')
    const logPath = (tryNumber: number): string => `/api/v2/dags/test_site/dagRuns/G1/taskInstances/deployment_configuration/logs/${tryNumber}`
    const events = async (tryNumber: number): Promise<string[]> =>
      ((await engine.call('GET', logPath(tryNumber))).body.content as Array<{ event: string }>).map((l) => l.event)
    const before = await events(1)
    expect(before.length).toBeGreaterThan(2)

    // the lines are read from the run's file once it is saved ended: a line changed there shows in the next read
    const file = join(dir, 'runs', '1.json')
    await until('G1 saved as ended', () => existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).state === 'success')
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    const ti = saved.tis.find((t: { task_id: string }) => t.task_id === 'deployment_configuration')
    ti.logs['1'][0].event = 'written in the file'
    writeFileSync(file, JSON.stringify(saved))
    expect(await events(1)).toEqual([...before.slice(0, 2), 'written in the file', ...before.slice(3)])

    // cleared, the task runs a second try; the first try's lines stay, in the API and in the file
    const clear = { dag_run_id: 'G1', task_ids: ['deployment_configuration'], only_failed: false, dry_run: false }
    expect((await engine.call('POST', '/api/v2/dags/test_site/clearTaskInstances', clear)).status).toBe(200)
    expect((await engine.waitRun('test_site', 'G1')).state).toBe('success')
    const second = await events(2)
    expect(second.length).toBeGreaterThan(2)
    expect((await events(1))[2]).toBe('written in the file')
    await engine.close()
    const logs = JSON.parse(readFileSync(file, 'utf8')).tis.find((t: { task_id: string }) => t.task_id === 'deployment_configuration').logs
    expect(Object.keys(logs).sort()).toEqual(['1', '2'])
    expect(logs['1'][0].event).toBe('written in the file')

    const again = await startTestEngine({ ENGINE_DATA_DIR: dir })
    const reread = await again.call('GET', logPath(2))
    expect((reread.body.content as Array<{ event: string }>).map((l) => l.event)).toEqual(second)
    await again.close()
  })

  it('refuses to start on a damaged run file, naming it', async () => {
    const dir = dataDir()
    writeFileSync(join(dir, 'engine.json'), JSON.stringify({ seq: 1, dags: [] }))
    mkdirSync(join(dir, 'runs'))
    writeFileSync(join(dir, 'runs', '1.json'), '{"seq": 1, "dag_id"')
    await expect(startTestEngine({ ENGINE_DATA_DIR: dir })).rejects.toThrow(`${join(dir, 'runs', '1.json')} is not readable as JSON`)
    writeFileSync(join(dir, 'runs', '1.json'), JSON.stringify({ seq: 2, dag_id: 'test_site', dag_run_id: 'X', tis: [] }))
    await expect(startTestEngine({ ENGINE_DATA_DIR: dir })).rejects.toThrow(`${join(dir, 'runs', '1.json')} is not a run of the engine`)
  })
})
