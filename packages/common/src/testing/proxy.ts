// A TCP proxy in front of a stand-in, switchable at any time: `pass` forwards, `down` resets every connection as
// it opens, `hang` accepts connections and never answers. Switching drops the connections already open, so that
// pooled keep-alive sockets see the new mode too.
import { connect, createServer, type Socket } from 'node:net'
import { onTestFinished } from 'vitest'

export type ProxyMode = 'pass' | 'down' | 'hang'

export interface Proxy {
  /** The target's URL with the proxy's host and port. */
  url: string
  mode: ProxyMode
  /** Switches the mode; resolves once the clients have had time to see their old connections go. */
  set: (mode: ProxyMode) => Promise<void>
}

export async function startProxy (target: string): Promise<Proxy> {
  const to = new URL(target)
  const open = new Set<Socket>()
  let mode: ProxyMode = 'pass'
  const track = (socket: Socket): void => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    socket.on('error', () => { socket.destroy() })
  }
  const server = createServer((client) => {
    track(client)
    if (mode === 'down') { client.resetAndDestroy(); return }
    if (mode === 'hang') return
    const upstream = connect(Number(to.port), to.hostname)
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  onTestFinished(async () => {
    for (const socket of open) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  const proxy: Proxy = {
    url: url.toString().replace(/\/$/, target.endsWith('/') ? '/' : ''),
    get mode () { return mode },
    async set (next) {
      mode = next
      for (const socket of open) socket.destroy()
      // a pooled client notices a closed keep-alive socket on its next turn of the event loop
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return proxy
}
