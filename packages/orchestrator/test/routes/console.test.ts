// GET /console and its files (issue 20): served without a token on an app that guards everything else, with
// their content types, revalidation caching, gzip when asked, and a Content-Security-Policy that allows nothing
// but the orchestrator's origin; the page references only files that are served, and nothing inline.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createPolicy, createServiceApp } from '@slipway/common'
import { isErrorBody, testAuthenticator } from '@slipway/common/testing'
import { CONSOLE_DIR, consoleRoutes, type ConsoleSettings } from '../../src/routes/console.ts'
import { loadConfig } from '../../src/config.ts'
import { POLICY_DEFAULTS } from '../../src/policy.ts'

async function consoleApp (folder?: string, settings?: ConsoleSettings) {
  const app = createServiceApp({ service: 'orchestrator', logger: false, authenticator: testAuthenticator(), policy: createPolicy(POLICY_DEFAULTS) })
  await app.register(consoleRoutes, { folder, settings })
  onTestFinished(async () => { await app.close() })
  return app
}

function scratchFolder (): string {
  const folder = mkdtempSync(join(tmpdir(), 'slipway-console-test-'))
  onTestFinished(() => { rmSync(folder, { recursive: true, force: true }) })
  return folder
}

describe('GET /console', () => {
  it('answers the page at /console and /console/ without a token, with its CSP and caching headers', async () => {
    const app = await consoleApp()
    for (const url of ['/console', '/console/', '/console/index.html']) {
      const res = await app.inject({ url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'self';/)
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/)
      expect(res.body).toBe(readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8'))
    }
  })

  it('serves every module and style sheet with its type, and each reference of the page and its modules is served', async () => {
    const app = await consoleApp()
    const served = new Set<string>()
    for (const name of readdirSync(CONSOLE_DIR)) {
      const res = await app.inject({ url: `/console/${name}` })
      expect(res.statusCode, name).toBe(200)
      expect(res.headers['content-type'], name).toBe({ js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', html: 'text/html; charset=utf-8', svg: 'image/svg+xml' }[name.split('.').at(-1) ?? ''])
      served.add(name)
    }
    const html = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8')
    const references = [...html.matchAll(/(?:src|href)="\/console\/([^"]+)"/g)].map((m) => m[1])
    for (const name of served) {
      if (!name.endsWith('.js')) continue
      references.push(...[...readFileSync(join(CONSOLE_DIR, name), 'utf8').matchAll(/^import .* from '\.\/([^']+)'$/gm)].map((m) => m[1]))
    }
    expect(references.length).toBeGreaterThan(10)
    for (const reference of references) expect(served, reference).toContain(reference)
  })

  it('keeps nothing inline that the CSP would have to allow, and builds no HTML from text', () => {
    const html = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8')
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=|<style/)
    for (const name of readdirSync(CONSOLE_DIR).filter((n) => n.endsWith('.js'))) {
      expect(readFileSync(join(CONSOLE_DIR, name), 'utf8'), name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|eval\(|new Function|setAttribute\('style'/)
    }
  })

  it('answers 304 to a matching If-None-Match, and gzip only to a client that accepts it', async () => {
    const app = await consoleApp()
    const first = await app.inject({ url: '/console/app.js' })
    const again = await app.inject({ url: '/console/app.js', headers: { 'if-none-match': String(first.headers.etag) } })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    const gzipped = await app.inject({ url: '/console/app.js', headers: { 'accept-encoding': 'br, gzip' } })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(first.body)
    expect(gzipped.rawPayload.length).toBeLessThan(first.rawPayload.length)
    const refused = await app.inject({ url: '/console/app.js', headers: { 'accept-encoding': 'gzip;q=0, identity' } })
    expect(refused.headers['content-encoding']).toBeUndefined()
    expect(refused.body).toBe(first.body)
  })

  it('answers 404 error bodies for files it does not serve, outside the folder or of another kind', async () => {
    const folder = scratchFolder()
    writeFileSync(join(folder, 'index.html'), '<!doctype html><title>t</title>')
    writeFileSync(join(folder, 'notes.md'), '# not served')
    mkdirSync(join(folder, 'sub'))
    writeFileSync(join(folder, 'sub', 'x.js'), 'export {}')
    const app = await consoleApp(folder)
    for (const url of ['/console/notes.md', '/console/sub/x.js', '/console/../package.json', '/console/%2e%2e/src/app.ts', '/console/nope.js']) {
      const res = await app.inject({ url })
      expect(res.statusCode, url).toBe(404)
      expect(isErrorBody(res.json()), url).toBe(true)
    }
    expect((await app.inject({ url: '/console/' })).body).toBe('<!doctype html><title>t</title>')
  })

  it('reads a file when it is first asked for, and keeps what it read', async () => {
    const folder = scratchFolder()
    writeFileSync(join(folder, 'index.html'), '<!doctype html><title>at start</title>')
    writeFileSync(join(folder, 'app.js'), 'export const at = "start"')
    const app = await consoleApp(folder)
    await app.ready()
    // nothing was read while the app was built: what the folder holds at the first request is served
    writeFileSync(join(folder, 'app.js'), 'export const at = "first request"')
    const first = await app.inject({ url: '/console/app.js' })
    expect(first.statusCode).toBe(200)
    expect(first.body).toBe('export const at = "first request"')
    writeFileSync(join(folder, 'app.js'), 'export const at = "later"')
    const again = await app.inject({ url: '/console/app.js' })
    expect(again.body).toBe('export const at = "first request"')
    expect(again.headers.etag).toBe(first.headers.etag)
  })

  it('tells the page the engine UI\'s address without a token, null when none is set; a non-HTTP address is refused at start', async () => {
    const read = async (settings?: ConsoleSettings) => await (await consoleApp(undefined, settings)).inject({ url: '/console/settings.json' })
    const none = await read()
    expect(none.statusCode).toBe(200)
    expect(none.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(none.json()).toEqual({ engine_ui_url: null })
    expect((await read({ engineUiUrl: '' })).json()).toEqual({ engine_ui_url: null })
    expect((await read({ engineUiUrl: 'https://airflow.example:8080' })).json()).toEqual({ engine_ui_url: 'https://airflow.example:8080' })
    expect(loadConfig({ ENGINE_UI_URL: 'http://127.0.0.1:8080' }).ENGINE_UI_URL).toBe('http://127.0.0.1:8080')
    expect(loadConfig({}).ENGINE_UI_URL).toBe('')
    expect(() => loadConfig({ ENGINE_UI_URL: 'javascript:alert(1)' })).toThrow(/ENGINE_UI_URL/)
  })

  it('refuses to start on a folder without index.html', async () => {
    await expect(consoleApp(scratchFolder())).rejects.toThrow(/has no index.html/)
  })
})
