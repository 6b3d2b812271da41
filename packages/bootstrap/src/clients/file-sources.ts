// Fetches the bytes behind HostSystem `url` / `tar_url` files: only from the file hosts
// (FILE_HOSTS), with bounded retries and linear back-off, a size limit, and an in-memory cache (upstream keeps files
// 72 h) bounded in bytes, so that each node's join does not download the same tarball again and the cache never
// holds more than its bound.
import { request, type Dispatcher } from 'undici'
import { DownstreamError, type CallContext } from '@slipway/common'
import type { DesignHosts, RemoteFiles } from '../types.ts'
import { DesignError } from '../errors.ts'

export interface FileSourceOptions {
  timeoutMs: number
  /** Attempts per URL, the first included. */
  attempts: number
  retryDelayMs: number
  maxBytes: number
  cacheTtlMs: number
  /** Most bytes kept in the cache; the least recently used file goes first, a file larger than this is not kept. */
  cacheMaxBytes: number
  /** The only hosts a file URL may name; a URL on any other is refused before anything is fetched. */
  hosts: DesignHosts
  dispatcher?: Dispatcher
}

class RetryableFetchError extends Error {}

/** The files fetched lately, least recently used first, never more than `maxBytes` of them; expired ones dropped. */
function createFileCache (maxBytes: number, ttlMs: number) {
  const entries = new Map<string, { bytes: Buffer, fetchedAt: number }>()
  let total = 0
  const drop = (url: string): void => {
    const entry = entries.get(url)
    if (entry === undefined) return
    entries.delete(url)
    total -= entry.bytes.length
  }
  return {
    get (url: string): Buffer | undefined {
      const entry = entries.get(url)
      if (entry === undefined) return undefined
      drop(url)
      if (Date.now() - entry.fetchedAt >= ttlMs) return undefined
      // used again: it moves to the end, the last to be evicted
      entries.set(url, entry)
      total += entry.bytes.length
      return entry.bytes
    },
    set (url: string, bytes: Buffer): void {
      drop(url)
      const now = Date.now()
      for (const [key, entry] of entries) if (now - entry.fetchedAt >= ttlMs) drop(key)
      if (ttlMs === 0 || bytes.length > maxBytes) return
      entries.set(url, { bytes, fetchedAt: now })
      total += bytes.length
      for (const key of entries.keys()) {
        if (total <= maxBytes) break
        drop(key)
      }
    }
  }
}

/** Refuses a URL that is not on one of the file hosts (a 400, before anything is fetched). */
function checkHost (url: string, hosts: DesignHosts): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed !== undefined && hosts.allows(parsed)) return
  const host = parsed?.host ?? 'a host that cannot be read'
  throw new DesignError(
    `A HostSystem file url or tar_url names ${host}, which is not one of this service's file hosts (FILE_HOSTS)`,
    'InvalidFormatError'
  )
}

export function createFileSources (options: FileSourceOptions) {
  const cache = createFileCache(options.cacheMaxBytes, options.cacheTtlMs)

  async function once (url: string, ctx: CallContext): Promise<Buffer> {
    const headers: Record<string, string> = {}
    if (ctx.contextMarker !== undefined) headers['x-context-marker'] = ctx.contextMarker
    let response: Dispatcher.ResponseData
    try {
      response = await request(url, {
        headers,
        dispatcher: options.dispatcher,
        signal: AbortSignal.timeout(options.timeoutMs),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs
      })
    } catch (error) {
      throw new RetryableFetchError(`${url} could not be fetched (${(error as { code?: string }).code ?? (error as Error).name})`)
    }
    const chunks: Buffer[] = []
    let size = 0
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length
        if (size > options.maxBytes) {
          response.body.destroy()
          throw new DownstreamError('file source', `${url} is larger than ${options.maxBytes} bytes`, { statusCode: 502 })
        }
        chunks.push(chunk as Buffer)
      }
    } catch (error) {
      if (error instanceof DownstreamError) throw error
      throw new RetryableFetchError(`${url} broke off while being read`)
    }
    // a 5xx may pass; a 4xx names a file the server does not have, which retrying will not change
    if (response.statusCode >= 500) throw new RetryableFetchError(`${url} answered ${response.statusCode}`)
    if (response.statusCode !== 200) {
      throw new DownstreamError('file source', `${url} answered ${response.statusCode}`, {
        statusCode: 502, upstreamStatus: response.statusCode
      })
    }
    return Buffer.concat(chunks)
  }

  async function fetchOne (url: string, ctx: CallContext): Promise<Buffer> {
    const cached = cache.get(url)
    if (cached !== undefined) return cached
    let last = ''
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      try {
        const bytes = await once(url, ctx)
        cache.set(url, bytes)
        return bytes
      } catch (error) {
        if (!(error instanceof RetryableFetchError)) throw error
        last = error.message
        if (attempt < options.attempts) await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs * attempt))
      }
    }
    throw new DownstreamError('file source', `${last} (gave up after ${options.attempts} attempts)`, { statusCode: 502 })
  }

  /**
   * The bytes of every URL; a URL off the file hosts is a 400 DesignError before any is fetched, the first failed
   * fetch a 502 DownstreamError naming the URL.
   */
  return async function fetchFiles (urls: string[], ctx: CallContext): Promise<RemoteFiles> {
    for (const url of urls) checkHost(url, options.hosts)
    const files: RemoteFiles = new Map()
    for (const url of urls) files.set(url, await fetchOne(url, ctx))
    return files
  }
}

export type FileSources = ReturnType<typeof createFileSources>
