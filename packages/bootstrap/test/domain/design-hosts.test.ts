import { ConfigError } from '@slipway/common'
import { describe, expect, it } from 'vitest'
import { createDesignHosts } from '../../src/domain/design-hosts.ts'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/deps.ts'

const allows = (list: string, url: string, store = 'http://127.0.0.1:9100/api/v1.0') => createDesignHosts(list, store).allows(new URL(url))

describe('design hosts', () => {
  it('default to the host and port of the store URL, and nothing else', () => {
    expect(loadConfig({}).DESIGN_HOSTS).toBe('')
    const store = 'http://store:9100/api/v1.0'
    expect(allows('', 'http://store:9100/api/v1.0/revisions/1/rendered-documents', store)).toBe(true)
    expect(allows('', 'http://STORE:9100/x', store)).toBe(true)
    expect(allows('', 'http://store:9200/x', store)).toBe(false)
    expect(allows('', 'http://store/x', store)).toBe(false)
    expect(allows('', 'http://evil.example:9100/x', store)).toBe(false)
    // a store on the scheme's default port stands for that port only
    expect(allows('', 'https://store.example/x', 'https://store.example/api/v1.0')).toBe(true)
    expect(allows('', 'https://store.example:443/x', 'https://store.example/api/v1.0')).toBe(true)
    expect(allows('', 'http://store.example/x', 'https://store.example/api/v1.0')).toBe(false)
  })

  it('take DESIGN_HOSTS as comma-separated host[:port]; no port means the scheme\'s default', () => {
    const list = ' store:9100 , designs.example, [::1]:8080, 10.0.0.5:80 '
    expect(allows(list, 'http://store:9100/x')).toBe(true)
    expect(allows(list, 'http://designs.example/site.yaml')).toBe(true)
    expect(allows(list, 'https://designs.example/site.yaml')).toBe(true)
    expect(allows(list, 'http://designs.example:8080/site.yaml')).toBe(false)
    expect(allows(list, 'http://[::1]:8080/x')).toBe(true)
    expect(allows(list, 'http://10.0.0.5/x')).toBe(true)
    // the configured store is no design host once DESIGN_HOSTS names others
    expect(allows(list, 'http://127.0.0.1:9100/x')).toBe(false)
    expect(allows(list, 'http://designs.example.evil.test/x')).toBe(false)
  })

  it.each(['http://store:9100', 'store:9100/path', 'user@store', 'store:0', 'store:70000', 'st ore'])('refuses the entry %j', (entry) => {
    expect(() => createDesignHosts(entry, 'http://127.0.0.1:9100')).toThrow(/is not host\[:port\]/)
  })

  it('stop the service at start-up, naming DESIGN_HOSTS, when an entry is not host[:port]', () => {
    const error = (() => { try { createDeps(loadConfig({ DESIGN_HOSTS: 'http://store:9100' })); return undefined } catch (e) { return e } })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^DESIGN_HOSTS: /)])
  })
})
