// The mixed traffic of bench/soak.ts, through the orchestrator's API until stopped:
// - a stager: a changed document appended to one of four collections, then a commit, the buffer read, and every
//   fifth round the committed documents rendered (every 4 s);
// - a site-action client: deploy_site and update_software in turn (intermediate commits allowed), each polled every
//   second to its end, then its steps read and the logs of its first and last step (2 s between actions);
// - a test_site client beside it (every 15 s), polled to its end;
// - two polling clients: the action list, the workflows, the site statuses and the buffer, every 2 s — the list read
//   as an open console reads it (the newest 500 actions, with the last answer's ETag: 304 while nothing changed);
// - a command-line client reading the whole action list (the seed's plain GET /actions) once a minute.
// Counts each answer's status per kind of request and keeps the slowest.

interface Tally { statuses: Map<number, number>, slowestMs: number, failures: number }

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

export async function startTraffic (options: { api: string, token: string, site: { global: string, site: string } }) {
  const tallies = new Map<string, Tally>()
  // read by every worker's loop, set by stop()
  const state = { stopping: false }

  type Answer = { status: number, etag: string | null, json: () => any }
  async function call (
    kind: string, method: string, path: string, body?: string, type?: string, more: Record<string, string> = {}
  ): Promise<Answer> {
    const tally = tallies.get(kind) ?? { statuses: new Map<number, number>(), slowestMs: 0, failures: 0 }
    tallies.set(kind, tally)
    const started = performance.now()
    try {
      const res = await fetch(`${options.api}${path}`, {
        method,
        headers: { 'x-auth-token': options.token, ...(type === undefined ? {} : { 'content-type': type }), ...more },
        body,
        signal: AbortSignal.timeout(120_000)
      })
      const text = await res.text()
      tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1)
      tally.slowestMs = Math.max(tally.slowestMs, performance.now() - started)
      return { status: res.status, etag: res.headers.get('etag'), json: () => JSON.parse(text) }
    } catch {
      tally.failures++
      return { status: 0, etag: null, json: () => ({}) }
    }
  }

  const yaml = 'application/x-yaml'
  const json = 'application/json'
  const extra = (n: number): string =>
    `---\nschema: example/Extra/v1\nmetadata: {schema: metadata/Document/v1, name: soak-${n % 4}, layeringDefinition: {abstract: false, layer: site}, storagePolicy: cleartext}\ndata: {round: ${n}, pad: ${'x'.repeat(2000)}}\n`

  // the example site committed first, so that site actions have a revision to run on
  if ((await call('stage', 'POST', '/configdocs/global', options.site.global, yaml)).status !== 201 ||
    (await call('stage', 'POST', '/configdocs/site?buffermode=append', options.site.site, yaml)).status !== 201 ||
    (await call('commit', 'POST', '/commitconfigdocs')).status !== 200) {
    throw new Error('soak: the example site could not be staged and committed')
  }

  async function stager (): Promise<void> {
    for (let round = 0; !state.stopping; round++) {
      await call('stage', 'POST', `/configdocs/soak-${round % 4}?buffermode=append`, extra(round), yaml)
      await call('commit', 'POST', '/commitconfigdocs')
      await call('read buffer', 'GET', '/configdocs')
      if (round % 5 === 0) await call('render', 'GET', '/renderedconfigdocs?version=committed')
      await sleep(4000)
    }
  }

  /** Polls an action until it ends (or the soak stops), then reads its steps and two logs. */
  async function follow (id: string): Promise<void> {
    for (;;) {
      await sleep(1000)
      const action = await call('poll action', 'GET', `/actions/${id}`)
      const lifecycle = action.status === 200 ? String(action.json().action_lifecycle) : ''
      if (lifecycle === 'Complete' || lifecycle === 'Failed' || state.stopping) {
        const steps = (action.status === 200 ? action.json().steps : []) as Array<{ id: string }>
        for (const step of [steps[0], steps.at(-1)]) {
          if (step === undefined) continue
          await call('step', 'GET', `/actions/${id}/steps/${step.id}`)
          await call('log', 'GET', `/actions/${id}/steps/${step.id}/logs`)
        }
        return
      }
    }
  }

  async function siteActions (): Promise<void> {
    for (let round = 0; !state.stopping; round++) {
      const name = round % 2 === 0 ? 'deploy_site' : 'update_software'
      const created = await call('create site action', 'POST', '/actions?allow-intermediate-commits=true', JSON.stringify({ name }), json)
      if (created.status === 201) await follow(String(created.json().id))
      await sleep(2000)
    }
  }

  async function testSite (): Promise<void> {
    while (!state.stopping) {
      const created = await call('create test_site', 'POST', '/actions', '{"name": "test_site"}', json)
      if (created.status === 201) await follow(String(created.json().id))
      await sleep(15_000)
    }
  }

  async function poller (): Promise<void> {
    let etag: string | null = null
    while (!state.stopping) {
      const conditional: Record<string, string> = etag === null ? {} : { 'if-none-match': etag }
      const list = await call('console list', 'GET', '/actions?limit=500', undefined, undefined, conditional)
      if (list.status === 200) etag = list.etag
      await call('list workflows', 'GET', '/workflows')
      await call('site statuses', 'GET', '/site_statuses')
      await call('read buffer', 'GET', '/configdocs')
      await sleep(2000)
    }
  }

  async function fullList (): Promise<void> {
    while (!state.stopping) {
      await call('list actions', 'GET', '/actions')
      for (let s = 0; s < 60 && !state.stopping; s++) await sleep(1000)
    }
  }

  const workers = [stager(), siteActions(), testSite(), poller(), poller(), fullList()]
  return {
    async stop (): Promise<void> {
      state.stopping = true
      await Promise.all(workers)
    },
    total: (): number => [...tallies.values()].reduce((sum, t) =>
      sum + t.failures + [...t.statuses.values()].reduce((a, b) => a + b, 0), 0),
    /** Answers 5xx and requests that got no answer. */
    serverErrors: (): number => [...tallies.values()].reduce((sum, t) => sum + t.failures +
      [...t.statuses].filter(([status]) => status >= 500).reduce((a, [, n]) => a + n, 0), 0),
    summary: (): string[] => [...tallies].map(([kind, t]) =>
      `${kind}: ${[...t.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}` +
      `${t.failures > 0 ? ` no answer×${t.failures}` : ''}, slowest ${(t.slowestMs / 1000).toFixed(2)} s`)
  }
}
