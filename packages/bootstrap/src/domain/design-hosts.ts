// The hosts a design reference may name (issue 18): a design_ref or href is fetched only from these, so the
// service's own token — and a caller's, forwarded when the service has none — reaches no other host, and no caller
// can make the service read an address of its choosing. By default the one host is the configured store's.

import type { DesignHosts } from '../types.ts'

/** One allowed host; without a port it stands for the default port of the reference's scheme (80, 443). */
interface DesignHost { hostname: string, port: string | undefined }

/** A design host list could not be read: names the entry, for a start-up error naming the variable. */
export class DesignHostsError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'DesignHostsError'
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' }

// host (a name, an IPv4 address or a bracketed IPv6 address) and an optional port; nothing else
const ENTRY = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/

/** The hostname as a URL spells it (lowercase, IDNA, IPv4 forms normalised), so that it compares with URL.hostname. */
function canonicalHostname (host: string): string | undefined {
  return URL.canParse(`http://${host}/`) ? new URL(`http://${host}/`).hostname : undefined
}

function parseEntry (entry: string): DesignHost {
  const match = ENTRY.exec(entry)
  const hostname = match === null ? undefined : canonicalHostname(match[1] ?? '')
  const port = match?.[2]
  if (hostname === undefined || hostname === '' || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
    throw new DesignHostsError(`${JSON.stringify(entry)} is not host[:port]`)
  }
  return { hostname, port: port === undefined ? undefined : String(Number(port)) }
}

export type { DesignHosts } from '../types.ts'

/**
 * `list` is DESIGN_HOSTS: comma-separated host[:port]; empty means the host and port of `storeUrl` alone.
 * Throws DesignHostsError for an entry that is not host[:port] or a store URL that is not http(s).
 */
export function createDesignHosts (list: string, storeUrl: string): DesignHosts {
  const entries = list.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
  let hosts: DesignHost[]
  if (entries.length > 0) {
    hosts = entries.map(parseEntry)
  } else {
    const store = URL.canParse(storeUrl) ? new URL(storeUrl) : undefined
    const defaultPort = store === undefined ? undefined : DEFAULT_PORTS[store.protocol]
    if (store === undefined || defaultPort === undefined) throw new DesignHostsError('the store URL is not an http(s) URL')
    hosts = [{ hostname: store.hostname, port: store.port === '' ? defaultPort : store.port }]
  }
  return {
    allows (url) {
      const defaultPort = DEFAULT_PORTS[url.protocol]
      if (defaultPort === undefined) return false
      const port = url.port === '' ? defaultPort : url.port
      return hosts.some((host) => host.hostname === url.hostname && (host.port ?? defaultPort) === port)
    }
  }
}
