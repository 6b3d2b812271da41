// The console's polling of the action list, without a browser: a window of the newest actions, asked for with the
// last answer's ETag, a 304 keeping the text it had.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../console/api.js'
import { LIST_WINDOW, listPath, listReader, mayHaveOlder } from '../../console/list-poll.js'

/** A list endpoint that answers 304 to the ETag of its current text, and records what it was asked. */
function endpoint () {
  const state = { text: '[]', version: 1, asked: [] }
  const fetchList = async (path, etag) => {
    state.asked.push([path, etag])
    const tag = `W/"${state.version}:${path}"`
    return etag === tag ? { status: 304 } : { status: 200, etag: tag, text: state.text }
  }
  return { state, fetchList }
}

describe('the console\'s list polling', () => {
  it('asks for the window of the newest actions', () => {
    expect(listPath(LIST_WINDOW)).toBe('/actions?limit=500')
    expect(listPath(1000)).toBe('/actions?limit=1000')
  })

  it('sends the last ETag back, keeps the text on a 304, and takes a changed list whole', async () => {
    const { state, fetchList } = endpoint()
    const read = listReader(fetchList)
    expect(await read('/actions?limit=500')).toEqual({ changed: true, text: '[]' })
    expect(await read('/actions?limit=500')).toEqual({ changed: false, text: '[]' })
    state.text = '[{"id":"A"}]'
    state.version++
    expect(await read('/actions?limit=500')).toEqual({ changed: true, text: '[{"id":"A"}]' })
    expect(state.asked).toEqual([
      ['/actions?limit=500', null], ['/actions?limit=500', 'W/"1:/actions?limit=500"'], ['/actions?limit=500', 'W/"1:/actions?limit=500"']
    ])
  })

  it('reads a new window whole, without the other window\'s ETag, and takes an answer without an ETag each time', async () => {
    const { state, fetchList } = endpoint()
    const read = listReader(fetchList)
    await read('/actions?limit=500')
    expect(await read('/actions?limit=1000')).toEqual({ changed: true, text: '[]' })
    expect(state.asked.at(-1)).toEqual(['/actions?limit=1000', null])
    // an orchestrator whose reads go to the engine sends no ETag: the same text is no change
    const plain = listReader(async () => ({ status: 200, etag: null, text: '[1]' }))
    expect(await plain('/actions?limit=500')).toEqual({ changed: true, text: '[1]' })
    expect(await plain('/actions?limit=500')).toEqual({ changed: false, text: '[1]' })
  })

  it('offers older actions only when the answer filled the window', () => {
    expect(mayHaveOlder(499, 500)).toBe(false)
    expect(mayHaveOlder(500, 500)).toBe(true)
  })
})

describe('the console\'s conditional read', () => {
  afterEach(() => { vi.unstubAllGlobals() })

  it('sends If-None-Match with the ETag it has, none without, and hands a 304 back as such', async () => {
    const sent = []
    vi.stubGlobal('sessionStorage', { getItem: () => 'token', setItem: () => {}, removeItem: () => {} })
    vi.stubGlobal('fetch', async (url, init) => {
      const etag = init.headers['If-None-Match']
      sent.push({ url, etag, token: init.headers['X-Auth-Token'] })
      return etag === 'W/"1"' ? new Response(null, { status: 304 }) : new Response('[]', { status: 200, headers: { ETag: 'W/"1"' } })
    })
    expect(await api.conditional('/actions?limit=500', null)).toEqual({ status: 200, etag: 'W/"1"', text: '[]' })
    expect(await api.conditional('/actions?limit=500', 'W/"1"')).toEqual({ status: 304 })
    expect(sent).toEqual([
      { url: '/api/v1.0/actions?limit=500', etag: undefined, token: 'token' },
      { url: '/api/v1.0/actions?limit=500', etag: 'W/"1"', token: 'token' }
    ])
  })
})
