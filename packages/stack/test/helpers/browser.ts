// Headless Chromium for one test file: Debian's /usr/bin/chromium driven by playwright-core (nothing downloads a
// browser), a screenshot folder under the OS temp dir that the tests print and remove unless KEEP_SCREENSHOTS is
// set, and every request the page makes, to measure the bytes a view costs and to check where the token went.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

/** True when the browser is installed; says so visibly when it is not (the tests are then skipped). */
export function chromiumPresent (what: string): boolean {
  if (existsSync(CHROMIUM)) return true
  console.warn(`${what}: skipped, ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`)
  return false
}

export interface Sent { url: string, method: string, headers: Record<string, string>, bytes: number }

/** A browser and one page at 1280×800, started before the file's tests and closed after them. */
export function browserPage (options: { name: string }) {
  let browser: Browser | undefined
  let context: BrowserContext | undefined
  let page: Page | undefined
  let folder = ''
  const sent: Sent[] = []
  const errors: string[] = []

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), `slipway-${options.name}-screenshots-`))
    console.log(`${options.name}: screenshots in ${folder}${process.env.KEEP_SCREENSHOTS === undefined ? ' (removed afterwards; KEEP_SCREENSHOTS=1 keeps them)' : ''}`)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    page = await context.newPage()
    record(page, sent)
    page.on('pageerror', (error) => { errors.push(error.message) })
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    if (process.env.KEEP_SCREENSHOTS === undefined && folder !== '') rmSync(folder, { recursive: true, force: true })
  })

  const running = (): Page => {
    if (page === undefined) throw new Error('the browser has not started')
    return page
  }

  /** Writes a screenshot of what the page shows now; `full` for the whole page. */
  async function screenshot (name: string, full = false): Promise<string> {
    const path = join(folder, `${name}.png`)
    await running().screenshot({ path, fullPage: full })
    return path
  }

  /** A second, empty context (no cache, no session) whose requests are counted apart. */
  async function freshPage (): Promise<{ page: Page, sent: Sent[] }> {
    if (browser === undefined) throw new Error('the browser has not started')
    const own = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const fresh = await own.newPage()
    const counted: Sent[] = []
    record(fresh, counted)
    return { page: fresh, sent: counted }
  }

  return { get page (): Page { return running() }, sent, errors, screenshot, freshPage, get folder (): string { return folder } }
}

function record (page: Page, into: Sent[]): void {
  page.on('requestfinished', async (request: Request) => {
    const sizes = await request.sizes()
    into.push({
      url: request.url(),
      method: request.method(),
      headers: request.headers(),
      bytes: sizes.responseBodySize + sizes.responseHeadersSize
    })
  })
}
