// What the console's browser tests do on its page beyond a browser's own verbs: sign in, move to a view as a link
// would, answer the confirmation dialog and read what it asked, and measure what a narrow window does to the page.
import { expect } from 'vitest'
import type { Page } from 'playwright-core'

/** The page's globals as the tests read them inside page.evaluate (this package's types have no DOM). */
interface Globals {
  location: { hash: string }
  document: {
    createRange: () => { selectNodeContents: (node: unknown) => void, getClientRects: () => { length: number } }
    documentElement: { scrollWidth: number }
  }
}
interface Box { getBoundingClientRect: () => { left: number, right: number }, scrollWidth: number, clientWidth: number }
interface Cell extends Box { closest: (selector: string) => Box | null }

export interface Asked { title: string, text: string, items: string[] }

export function consolePage (page: () => Page) {
  /** Moves the page to a view as a link would: a new hash, never a reload. */
  async function go (hash: string): Promise<void> {
    await page().evaluate((to) => { (globalThis as unknown as Globals).location.hash = to }, hash)
  }

  async function signIn (url: string, token: string): Promise<void> {
    await page().goto(url)
    await page().fill('#token', token)
    await page().click('#sign-in button[type=submit]')
    await page().locator('#view h1').waitFor()
  }

  /**
   * Answers the open confirmation and says what it asked. `another`: a second question follows at once, so the
   * dialog is not waited for to close.
   */
  async function answer (choice: 'ok' | 'cancel', another = false): Promise<Asked> {
    await page().locator('#confirm[open]').waitFor()
    const asked = {
      title: (await page().textContent('#confirm-title')) ?? '',
      text: (await page().textContent('#confirm-text')) ?? '',
      items: await page().locator('#confirm-list:not([hidden]) li').allTextContents()
    }
    await page().click(choice === 'ok' ? '#confirm-ok' : '#confirm-cancel')
    if (another) await expect.poll(async () => await page().textContent('#confirm-title')).not.toBe(asked.title)
    else await expect.poll(async () => await page().locator('#confirm').getAttribute('open')).toBe(null)
    return asked
  }

  /** Badges in `selector` wider than their box or reaching past their cell's content (clipped): their texts. */
  async function clippedBadges (selector: string): Promise<string[]> {
    return await page().locator(`${selector} .badge`).evaluateAll((badges) => badges.flatMap((el) => {
      const badge = el as unknown as Cell & { textContent: string }
      const cell = badge.closest('td, th')
      const clipped = badge.scrollWidth > badge.clientWidth ||
        (cell !== null && badge.getBoundingClientRect().right > cell.getBoundingClientRect().right - 1)
      return clipped ? [badge.textContent] : []
    }))
  }

  /** Texts of `selector` that wrap inside a word: a text node (a name's part between two <wbr>) on two lines. */
  async function brokenWords (selector: string): Promise<string[]> {
    return await page().locator(selector).evaluateAll((elements) => elements.flatMap((el) => {
      const { document } = globalThis as unknown as Globals
      const children = (el as unknown as { childNodes: Iterable<{ nodeType: number, textContent: string }> }).childNodes
      const texts = [...children].filter((n) => n.nodeType === 3)
      return texts.filter((node) => {
        const range = document.createRange()
        range.selectNodeContents(node)
        return range.getClientRects().length > 1
      }).map((node) => node.textContent)
    }))
  }

  /** How wide the page is laid out: wider than the window means a sideways scroll. */
  async function pageWidth (): Promise<number> {
    return await page().evaluate(() => (globalThis as unknown as Globals).document.documentElement.scrollWidth)
  }

  return { go, signIn, answer, clippedBadges, brokenWords, pageWidth }
}
