// What a commit reads of the rendered site: only the documents of Shipyard's own checks (the store renders the whole
// revision regardless, so a render error still fails the commit), never the whole rendered site.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'
import { startPassThrough } from '../helpers/pass-through.ts'

describe('POST /api/v1.0/commitconfigdocs and the rendered documents', () => {
  it('asks the store for the deployment documents only, and still checks them', async () => {
    let proxy: Awaited<ReturnType<typeof startPassThrough>> | undefined
    const stack = await buildTestStack({
      wrap: async (component, url) => {
        if (component !== 'store') return url
        proxy = await startPassThrough(new URL(url).origin)
        return `${proxy.url}${new URL(url).pathname}`
      }
    })
    const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
    await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/global', headers: yaml, payload: GLOBAL_YAML.replace(/name: deployment-strategy\n/, 'name: another-strategy\n') })
    await stack.app.inject({ method: 'POST', url: '/api/v1.0/configdocs/site?buffermode=append', headers: yaml, payload: SITE_YAML })
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
    // the configuration names a strategy the site does not have: Shipyard's own check sees the documents it read
    expect(res.statusCode).toBe(400)
    expect(JSON.stringify(res.json())).toContain('deployment-strategy')
    const renders = proxy!.exchanges.filter((e) => e.path.includes('/rendered-documents'))
    expect(renders.length).toBeGreaterThan(0)
    for (const render of renders) {
      const query = new URL(render.path, 'http://x').searchParams
      expect(query.getAll('schema').sort()).toEqual(['pegleg/DeploymentData/v1', 'shipyard/DeploymentConfiguration/v1', 'shipyard/DeploymentStrategy/v1'])
      expect(render.text).not.toContain('schema: promenade/')
    }
  })
})
