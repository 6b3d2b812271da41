// Fetches the bytes behind HostSystem `url` / `tar_url` files: only from the file hosts
// (FILE_HOSTS), with bounded retries and linear back-off, a size limit, and an in-memory cache (upstream keeps files
// 72 h) bounded in bytes, so that each node's join does not download the same tarball again and the cache never
// holds more than its bound.
import { createReadStream, createWriteStream, rmSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { request, type Dispatcher } from 'undici'
import { DownstreamError, type CallContext } from '@slipway/common'
import type { DesignHosts, FetchedFiles, FileBody } from '../types.ts'
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
  /** Where a join keeps the files it fetched until its answer is written (default: the system's temp folder). */
  spoolDir?: string
  dispatcher?: Dispatcher
}

class RetryableFetchError extends Error {}

interface CacheEntry { bytes: Buffer, fetchedAt: number, holders: number }

/**
 * The files fetched lately, least recently used first, never more than `maxBytes` of them counting the room set aside
 * for files being read in; expired ones dropped. A file a join is writing into its answer is held: it is not evicted
 * (nor, expired, dropped) until the join lets it go, so what the cache holds and what joins hold of it stay within
 * the bound together.
 */
function createFileCache (maxBytes: number, ttlMs: number) {
  const entries = new Map<string, CacheEntry>()
  let total = 0
  const drop = (url: string): void => {
    const entry = entries.get(url)
    if (entry === undefined || entry.holders > 0) return
    entries.delete(url)
    total -= entry.bytes.length
  }
  /** Evicts unheld files, least recently used first, until `bytes` more fit; false when they cannot. */
  const makeRoom = (bytes: number): boolean => {
    const now = Date.now()
    for (const [key, entry] of entries) if (now - entry.fetchedAt >= ttlMs) drop(key)
    if (ttlMs === 0 || bytes > maxBytes) return false
    for (const key of entries.keys()) {
      if (total + bytes <= maxBytes) break
      drop(key)
    }
    return total + bytes <= maxBytes
  }
  return {
    /** A file's bytes, held until `release` is called with them. */
    hold (url: string): Buffer | undefined {
      const entry = entries.get(url)
      if (entry === undefined) return undefined
      if (Date.now() - entry.fetchedAt >= ttlMs) { drop(url); return undefined }
      // used again: it moves to the end, the last to be evicted
      entries.delete(url)
      entries.set(url, entry)
      entry.holders++
      return entry.bytes
    },
    release (url: string, bytes: Buffer): void {
      const entry = entries.get(url)
      if (entry !== undefined && entry.bytes === bytes && entry.holders > 0) entry.holders--
    },
    /** Sets `bytes` aside for a file about to be read in; false when the cache cannot take it. */
    reserve (bytes: number): boolean {
      if (!makeRoom(bytes)) return false
      total += bytes
      return true
    },
    /** The file read in after `reserve`, or (`bytes` undefined) the room given back. */
    fill (url: string, reserved: number, bytes: Buffer | undefined): void {
      total -= reserved
      if (bytes === undefined) return
      const current = entries.get(url)
      if (current !== undefined && current.holders > 0) return
      drop(url)
      entries.set(url, { bytes, fetchedAt: Date.now(), holders: 0 })
      total += bytes.length
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

/** Counts what passes and fails past `maxBytes`. */
function sizeLimit (url: string, maxBytes: number, counted: { size: number }): Transform {
  return new Transform({
    transform (chunk: Buffer, _encoding, done) {
      counted.size += chunk.length
      if (counted.size > maxBytes) {
        done(new DownstreamError('file source', `${url} is larger than ${maxBytes} bytes`, { statusCode: 502 }))
        return
      }
      done(null, chunk)
    }
  })
}

/** A file kept on disk for one join, read a chunk at a time. */
function onDisk (path: string, size: number): FileBody {
  return { size, read: () => createReadStream(path) }
}

export function createFileSources (options: FileSourceOptions) {
  const cache = createFileCache(options.cacheMaxBytes, options.cacheTtlMs)

  /** Fetches `url` into the file `path` as it arrives; its size. */
  async function once (url: string, path: string, ctx: CallContext): Promise<number> {
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
    if (response.statusCode !== 200) {
      await response.body.dump().catch(() => {})
      // a 5xx may pass; a 4xx names a file the server does not have, which retrying will not change
      if (response.statusCode >= 500) throw new RetryableFetchError(`${url} answered ${response.statusCode}`)
      throw new DownstreamError('file source', `${url} answered ${response.statusCode}`, {
        statusCode: 502, upstreamStatus: response.statusCode
      })
    }
    const counted = { size: 0 }
    try {
      await pipeline(response.body, sizeLimit(url, options.maxBytes, counted), createWriteStream(path))
    } catch (error) {
      if (error instanceof DownstreamError) throw error
      if ((error as { syscall?: string }).syscall !== undefined) throw error
      throw new RetryableFetchError(`${url} broke off while being read`)
    }
    return counted.size
  }

  /** Fetches `url` into `path` (retrying), then keeps it in the cache if it fits; its size. */
  async function fetchOne (url: string, path: string, ctx: CallContext): Promise<number> {
    let last = ''
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      try {
        const size = await once(url, path, ctx)
        if (cache.reserve(size)) {
          let bytes: Buffer | undefined
          try {
            bytes = await readFile(path)
          } finally {
            cache.fill(url, size, bytes?.length === size ? bytes : undefined)
          }
        }
        return size
      } catch (error) {
        if (!(error instanceof RetryableFetchError)) throw error
        last = error.message
        if (attempt < options.attempts) await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs * attempt))
      }
    }
    throw new DownstreamError('file source', `${last} (gave up after ${options.attempts} attempts)`, { statusCode: 502 })
  }

  /**
   * Every URL's file, for one join: a cached one held in memory, any other fetched onto disk as it arrives (and kept
   * in the cache too when it fits), so that the join holds no file in memory beyond the cache's bound. A URL off the
   * file hosts is a 400 DesignError before any is fetched, the first failed fetch a 502 DownstreamError naming the URL.
   * The caller calls `release` when its answer is written (or abandoned); on a failure here, all is let go already.
   */
  return async function fetchFiles (urls: string[], ctx: CallContext): Promise<FetchedFiles> {
    for (const url of urls) checkHost(url, options.hosts)
    const files = new Map<string, FileBody>()
    const held: Array<[string, Buffer]> = []
    let dir: string | undefined
    // removed at once, not on a later turn: a few unlinks, and the folder is gone before the answer's end reaches the
    // client — even when the process exits right after it
    const release = async (): Promise<void> => {
      for (const [url, bytes] of held.splice(0)) cache.release(url, bytes)
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
      dir = undefined
    }
    try {
      for (const [i, url] of urls.entries()) {
        const cached = cache.hold(url)
        if (cached !== undefined) {
          held.push([url, cached])
          files.set(url, cached)
          continue
        }
        dir ??= await mkdtemp(join(options.spoolDir ?? tmpdir(), 'bootstrap-files-'))
        const path = join(dir, String(i))
        files.set(url, onDisk(path, await fetchOne(url, path, ctx)))
      }
    } catch (error) {
      await release()
      throw error
    }
    return { files, release }
  }
}

export type FileSources = ReturnType<typeof createFileSources>
