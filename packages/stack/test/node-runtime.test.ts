// The repository brings the Node it runs on (the devDependency `node`), and every npm script path says in one line
// which Node it needs when it finds an older one. An older Node is played by a preload that changes the version
// the check reads, so the test runs the real script files.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const AS_NODE_20 = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"});Object.defineProperty(process,"version",{value:"v20.20.2"})'
const rootPackage = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>, devDependencies: Record<string, string>, allowScripts?: Record<string, boolean>
}

function run (script: string, args: string[], preload?: string) {
  const result = spawnSync(process.execPath, [...(preload === undefined ? [] : ['--import', preload]), resolve(ROOT, script), ...args], {
    cwd: ROOT, encoding: 'utf8'
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('the Node that runs Slipway', () => {
  it('is the devDependency `node`, at least 22.18, and its install script is approved', () => {
    const installed = JSON.parse(readFileSync(resolve(ROOT, 'node_modules/node/package.json'), 'utf8')) as { version: string }
    const [major = 0, minor = 0] = installed.version.split('.').map(Number)
    expect(major > 22 || (major === 22 && minor >= 18)).toBe(true)
    expect(rootPackage.devDependencies.node).toBeDefined()
    expect(rootPackage.allowScripts?.node).toBe(true)
    const binary = spawnSync(resolve(ROOT, 'node_modules/.bin/node'), ['--version'], { encoding: 'utf8' })
    expect(binary.stdout.trim()).toBe(`v${installed.version}`)
  })

  it('is checked before npm start and npm test', () => {
    for (const name of ['start', 'test', 'test:reliability']) {
      expect(rootPackage.scripts[`pre${name}`], name).toMatch(/^node packages\/stack\/bin\/node-check\.js /)
    }
  })
})

describe('packages/stack/bin/node-check.js', () => {
  it('says nothing on a Node that runs TypeScript', () => {
    expect(run('packages/stack/bin/node-check.js', ['npm start'])).toEqual({ status: 0, stdout: '', stderr: '' })
  })

  it('names the Node needed, the Node found and how to run Slipway, in one line, and fails', () => {
    const result = run('packages/stack/bin/node-check.js', ['npm start'], AS_NODE_20)
    expect(result.status).toBe(1)
    const lines = result.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('npm start needs Node >= 22.18, but this is Node v20.20.2')
    expect(lines[0]).toContain('npm ci')
    expect(lines[0]).toContain('npx node <file>.ts')
  })
})

describe('packages/stack/bin/prepare.js', () => {
  it('never fails the install on an old Node: one line, and the cache is not warmed', () => {
    const result = run('packages/stack/bin/prepare.js', [], AS_NODE_20)
    expect(result.status).toBe(0)
    expect(result.stdout.trim().split('\n')).toEqual([expect.stringContaining('Slipway needs Node >= 22.18, but this is Node v20.20.2')])
    expect(result.stdout).toContain('compile cache not warmed')
  })
})
