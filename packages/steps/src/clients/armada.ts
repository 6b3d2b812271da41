// Armada, as upstream Shipyard's Armada operators use it: the releases it has installed, an apply of the site's
// manifest by its design reference, and each release's tests.
import { DownstreamError, type CallContext, type HttpClient } from '@slipway/common'
import { designPeer } from './design.ts'

/** What an apply did, by kind of change: release names. */
export interface ApplyMessage {
  install: string[]
  upgrade: string[]
  diff: unknown[]
  purge: string[]
  protected: string[]
}

const names = (value: unknown): string[] => Array.isArray(value) ? value.map((v) => typeof v === 'string' ? v : JSON.stringify(v)) : []

export function armadaClient (http: HttpClient) {
  return {
    ...designPeer(http),

    /** Installed releases by namespace. */
    async releases (ctx: CallContext, timeoutMs?: number): Promise<Record<string, string[]>> {
      const body = await http.getJson<{ releases?: Record<string, unknown> }>('/releases', { ctx, timeoutMs })
      if (body?.releases === undefined || typeof body.releases !== 'object' || body.releases === null) {
        throw new DownstreamError('armada', `Armada answered GET /releases without releases: ${JSON.stringify(body)?.slice(0, 200)}`)
      }
      return Object.fromEntries(Object.entries(body.releases).map(([ns, list]) => [ns, names(list)]))
    },

    async apply (designRef: string, targetManifest: string, timeoutS: number, ctx: CallContext): Promise<ApplyMessage> {
      const body = await http.sendJson<{ message?: Record<string, unknown> }>('POST', '/apply', {
        ctx,
        // Armada holds the request while it applies: the call may take as long as the apply may
        timeoutMs: (timeoutS + 60) * 1000,
        query: {
          target_manifest: targetManifest,
          timeout: timeoutS,
          disable_update_pre: false,
          disable_update_post: false,
          enable_chart_cleanup: false,
          dry_run: false,
          wait: false
        },
        json: { hrefs: [designRef], overrides: [] }
      })
      const message = body?.message
      if (message === undefined || typeof message !== 'object' || message === null) {
        throw new DownstreamError('armada', `Armada answered POST /apply without a message: ${JSON.stringify(body)?.slice(0, 200)}`)
      }
      return {
        install: names(message.install),
        upgrade: names(message.upgrade),
        diff: Array.isArray(message.diff) ? message.diff : [],
        purge: names(message.purge),
        protected: names(message.protected)
      }
    },

    /** One release's tests: whether they passed, and Armada's words. */
    async testRelease (release: string, timeoutS: number, ctx: CallContext): Promise<{ passed: boolean, message: string }> {
      const response = await http.request('GET', `/test/${encodeURIComponent(release)}`, {
        ctx, timeoutMs: (timeoutS + 60) * 1000, query: { timeout: timeoutS }
      })
      const body = http.parseJson<{ result?: unknown, message?: unknown } | null>(response, `GET /test/${release}`) ?? {}
      const result = typeof body.result === 'string' ? body.result : ''
      const message = typeof body.message === 'string' ? body.message : JSON.stringify(body.message ?? body)
      // the result decides when there is one: a message such as `3 passed, 0 failed` is no failure
      const passed = response.statusCode < 300 && !/fail/i.test(result === '' ? message : result)
      return { passed, message: result === '' ? message : `${result}: ${message}` }
    }
  }
}
export type ArmadaClient = ReturnType<typeof armadaClient>
