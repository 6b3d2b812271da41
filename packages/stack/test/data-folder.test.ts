// The data folder of `npm start`: state left without the admin token it belongs with, a folder deleted under a
// running stack, and the banner's account of where the data is.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { dataFolderGone, leftoverState, watchDataFolder } from '../src/data-folder.ts'
import { banner } from '../src/banner.ts'
import { newSecret, type Stack } from '../src/stack.ts'

function folder (): string {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-data-'))
  onTestFinished(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

describe('leftoverState', () => {
  it('names the process folders holding state when the admin token is gone', () => {
    const dir = folder()
    mkdirSync(join(dir, 'engine'))
    writeFileSync(join(dir, 'engine', 'engine-state.json'), '{}')
    mkdirSync(join(dir, 'site'))
    expect(leftoverState(dir)).toEqual(['engine'])
  })

  it('is empty for a new folder and for one whose admin token is there', () => {
    const dir = folder()
    expect(leftoverState(join(dir, 'missing'))).toEqual([])
    mkdirSync(join(dir, 'engine'))
    writeFileSync(join(dir, 'engine', 'engine-state.json'), '{}')
    writeFileSync(join(dir, 'admin-token'), 'x\n')
    expect(leftoverState(dir)).toEqual([])
  })

  it('is empty for a folder whose admin token is given by SLIPWAY_ADMIN_TOKEN: the service token is there', () => {
    const dir = folder()
    mkdirSync(join(dir, 'engine'))
    writeFileSync(join(dir, 'engine', 'engine-state.json'), '{}')
    writeFileSync(join(dir, 'service-token'), 'x\n')
    expect(leftoverState(dir)).toEqual([])
  })
})

describe('watchDataFolder', () => {
  // the watch looks every intervalMs: fake timers make its looks happen at once, without waiting on a busy machine
  function watched (dir: string): { calls: () => number } {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    onTestFinished(() => { vi.useRealTimers() })
    let calls = 0
    const stop = watchDataFolder(dir, () => { calls++ }, 2000)
    onTestFinished(stop)
    return { calls: () => calls }
  }

  it('calls back once when the folder is deleted', () => {
    const dir = folder()
    writeFileSync(join(dir, 'admin-token'), 'x\n')
    const watch = watched(dir)
    vi.advanceTimersByTime(10_000)
    expect(watch.calls()).toBe(0)
    rmSync(dir, { recursive: true, force: true })
    vi.advanceTimersByTime(2000)
    expect(watch.calls()).toBe(1)
    vi.advanceTimersByTime(10_000)
    expect(watch.calls()).toBe(1)
  })

  it('watches the folder itself: a folder without an admin-token (SLIPWAY_ADMIN_TOKEN given) is not reported deleted', () => {
    const dir = folder()
    writeFileSync(join(dir, 'service-token'), 'x\n')
    const watch = watched(dir)
    vi.advanceTimersByTime(10_000)
    expect(watch.calls()).toBe(0)
    expect(dataFolderGone(dir)).toBe(false)
    rmSync(dir, { recursive: true, force: true })
    vi.advanceTimersByTime(2000)
    expect(watch.calls()).toBe(1)
  })

  it('counts a file where the folder was as the folder gone', () => {
    const dir = folder()
    expect(dataFolderGone(dir)).toBe(false)
    expect(dataFolderGone(join(dir, 'missing'))).toBe(true)
    writeFileSync(join(dir, 'plain'), 'x\n')
    expect(dataFolderGone(join(dir, 'plain'))).toBe(true)
  })
})

describe('banner', () => {
  const stack = {
    urls: { orchestrator: 'http://o', bootstrap: 'http://b', store: 'http://s', engine: 'http://e', site: 'http://x' },
    adminToken: 'token'
  } as unknown as Stack

  it('names the Node, the data folder and, with DATABASE_URL, the database without its password', () => {
    const text = banner({ stack, dataDir: '/d', startedMs: 5, databaseUrl: 'postgres://u:hunter2@db.example:5433/slip' })
    expect(text).toContain(`Slipway is up in 5 ms on Node ${process.version} (data in /d; the orchestrator's database: PostgreSQL at db.example:5433/slip)`)
    expect(text).not.toContain('hunter2')
    expect(banner({ stack, dataDir: '/d', startedMs: 5 })).toContain('(data in /d)\n')
    // the operator's console, where a person signs in with the printed token
    expect(banner({ stack, dataDir: '/d', startedMs: 5 })).toContain(`${stack.urls.orchestrator}/console/`)
  })
})

describe('newSecret', () => {
  it('never begins with - or _, which a command line would take for an option', () => {
    for (let i = 0; i < 2000; i++) expect(newSecret()).toMatch(/^[A-Za-z0-9][\w-]{31}$/)
  })
})
