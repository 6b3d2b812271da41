// Graceful shutdown: on SIGTERM or SIGINT stop accepting, let in-flight requests finish, close resources, exit.

/** Something that can be closed on shutdown (a Fastify app, a database, a timer owner). */
export interface Closable { close: () => Promise<unknown> | unknown }

/**
 * Closes `resources` in order on the first SIGTERM/SIGINT, then exits 0 (1 when a close failed or took
 * longer than `timeoutMs`). A second signal exits at once. Returns a function that removes the handlers.
 */
export function onShutdown (
  resources: Closable[],
  options: { timeoutMs?: number, log?: (message: string, error?: unknown) => void, exit?: (code: number) => void } = {}
): () => void {
  const timeoutMs = options.timeoutMs ?? 10_000
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`))
  const exit = options.exit ?? ((code: number) => process.exit(code))
  let closing = false

  async function handle (signal: NodeJS.Signals): Promise<void> {
    if (closing) { exit(1); return }
    closing = true
    log(`${signal} received, shutting down`)
    const timer = setTimeout(() => { log('shutdown timed out'); exit(1) }, timeoutMs)
    timer.unref()
    let code = 0
    for (const resource of resources) {
      try {
        await resource.close()
      } catch (error) {
        code = 1
        log('error while closing', error)
      }
    }
    clearTimeout(timer)
    exit(code)
  }
  const listener = (signal: NodeJS.Signals): void => { handle(signal).catch(() => exit(1)) }
  process.on('SIGTERM', listener)
  process.on('SIGINT', listener)
  return () => {
    process.off('SIGTERM', listener)
    process.off('SIGINT', listener)
  }
}
