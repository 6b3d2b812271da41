// The container image's layout, without a Docker engine: the Dockerfile's stages reproduced in a throw-away folder
// (helpers/image-stages.ts: the same npm flags, the same copies from a fresh clone's files) and every service started
// from the final stage's folder, as the compose file runs them, until healthy.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dockerIgnores, nestedNodeModules, reproduceStages, type Stage } from './helpers/image-stages.ts'
import { waitHealthy } from '../src/child.ts'
import { DEFAULT_HEALTH_TIMEOUT_MS, HEALTH_PATH, PROCESS_NAMES, stackEnvironment, type ProcessName } from '../src/stack.ts'
import { freePort } from '@slipway/common/ports'

const ROOT = resolve(import.meta.dirname, '../../..')
const compose = parseYaml(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, { command?: string[] }> }
let work = ''
let stages = new Map<string, Stage>()

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'slipway-image-'))
  stages = reproduceStages({ repoRoot: ROOT, dockerfile: join(ROOT, 'Dockerfile'), workRoot: work, env: process.env })
}, 180_000)

afterAll(() => { rmSync(work, { recursive: true, force: true }) })

describe('the Dockerfile', () => {
  it('leaves every node_modules folder of the host out of the build context', () => {
    const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line !== '')
    for (const path of ['node_modules/fastify/package.json', 'packages/stub-store/node_modules/ajv/package.json', 'packages/orchestrator/test/server.test.ts']) {
      expect(dockerIgnores(patterns, path), path).toBe(true)
    }
    expect(dockerIgnores(patterns, 'packages/stub-store/src/server.ts')).toBe(false)
  })

  it('carries into its final stage every packages/*/node_modules the install puts there', () => {
    const installed = nestedNodeModules(stages.get('deps') as Stage)
    expect(installed.length).toBeGreaterThan(0)
    expect(nestedNodeModules(stages.get('final') as Stage)).toEqual(installed)
  })

  it('starts every service of the compose file from the final stage until healthy', async () => {
    const final = stages.get('final') as Stage
    const app = join(final.root, final.workdir)
    const data = join(work, 'data')
    const host = '127.0.0.1'
    const ports = {} as Record<ProcessName, number>
    for (const name of PROCESS_NAMES) ports[name] = await freePort(host)
    const wiring = stackEnvironment({ host, ports, dataDir: data, serviceToken: 'image-token', engineUser: 'slipway', enginePassword: 'image-password', tokensFile: '' })
    const children = PROCESS_NAMES.map((name) => {
      const command = compose.services[name]?.command ?? []
      expect(command[0]).toBe('node')
      // the image's environment, with its folders moved into the throw-away one and listening on 127.0.0.1 only
      const env = { PATH: process.env.PATH ?? '', ...final.env, NODE_COMPILE_CACHE: join(work, 'compile-cache'), ...wiring[name], AUTH_TOKENS_FILE: '', LOG_LEVEL: 'warn' }
      const child = spawn(process.execPath, command.slice(1), { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
      const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => { resolve(`${code ?? signal}: ${stderr}`) }))
      return { name, child, exited, reason: () => stderr }
    })
    try {
      await Promise.all(children.map(async (service) => {
        // a first start from the image has no compile cache: twice npm start's limit, for a busy machine
        await waitHealthy(`http://${host}:${ports[service.name]}${HEALTH_PATH[service.name]}`, service, 2 * DEFAULT_HEALTH_TIMEOUT_MS)
          .catch(async (error: Error) => { throw new Error(`${service.name}: ${error.message} ${service.reason()}`) })
      }))
    } finally {
      await Promise.all(children.map(async ({ child, exited }) => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        await exited
      }))
    }
  }, 3 * DEFAULT_HEALTH_TIMEOUT_MS)
})
