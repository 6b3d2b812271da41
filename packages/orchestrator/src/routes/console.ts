// The operator's console (issue 20): the static files of packages/orchestrator/console under /console. The folder is
// listed when the app is built (a route per file); each file is read, compressed and hashed when it is first asked
// for, then kept: an orchestrator nobody opens the console of never reads them. No token for these (the page is
// public); every API call the page makes sends the caller's.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { extname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { withQuery, type CommonRouteOptions } from '@slipway/common'

export const CONSOLE_DIR = resolve(import.meta.dirname, '../../console')

/** Only the orchestrator's own origin, nothing inline; no form may post anywhere, so a token never lands in a URL. */
export const CONSOLE_CSP = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// a file of any other kind in the folder is not served
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml'
}

interface ConsoleFile { type: string, body: Buffer, gzipped: Buffer | undefined, etag: string }

/** The file as served: its bytes, their gzip when that is smaller, and an ETag of the bytes. */
function read (path: string, type: string): ConsoleFile {
  const body = readFileSync(path)
  const gzipped = gzipSync(body, { level: 9 })
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
  return { type, body, gzipped: gzipped.length < body.length ? gzipped : undefined, etag }
}

/** The folder's files that are served, by name, each read on its first use. */
function list (folder: string): Map<string, () => ConsoleFile> {
  const files = new Map<string, () => ConsoleFile>()
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)]
    if (!entry.isFile() || type === undefined) continue
    let file: ConsoleFile | undefined
    files.set(entry.name, () => (file ??= read(join(folder, entry.name), type)))
  }
  if (!files.has('index.html')) throw new Error(`the console folder ${folder} has no index.html`)
  return files
}

/** RFC 9110 §12.5.3: gzip (or `*`) named with a weight above 0. */
function acceptsGzip (header: string | undefined): boolean {
  return (header ?? '').split(',').some((entry) => {
    const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase())
    const weight = params.find((param) => param.startsWith('q='))
    return (coding === 'gzip' || coding === '*') && (weight === undefined || Number(weight.slice(2)) > 0)
  })
}

/** What the console is told of the orchestrator's configuration: only what it shows, nothing secret. */
export interface ConsoleSettings {
  /** ENGINE_UI_URL: the engine's own UI, '' for none. */
  engineUiUrl?: string
}

/**
 * `GET /console` and `/console/` (the page), `GET /console/<file>` for each file of `folder`, `GET
 * /console/settings.json` (`{ engine_ui_url }`: the engine UI's address or null), nothing else; each
 * takes the `query` the orchestrator's other routes take.
 */
export async function consoleRoutes (
  app: FastifyInstance,
  options: { folder?: string, settings?: ConsoleSettings } & CommonRouteOptions
): Promise<void> {
  const files = list(options.folder ?? CONSOLE_DIR)
  const serve = (fileOf: () => ConsoleFile) => async (request: FastifyRequest, reply: FastifyReply) => {
    const file = fileOf()
    // the files change only with a new orchestrator and carry no version in their names (no build step): the
    // browser keeps them but asks every time, and an unchanged file is a bodiless 304
    reply.headers({
      'content-type': file.type,
      'cache-control': 'no-cache',
      etag: file.etag,
      vary: 'accept-encoding',
      'content-security-policy': CONSOLE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer'
    })
    if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === file.etag) === true) return await reply.code(304).send()
    if (file.gzipped !== undefined && acceptsGzip(request.headers['accept-encoding'])) {
      return await reply.header('content-encoding', 'gzip').send(file.gzipped)
    }
    return await reply.send(file.body)
  }
  // no part of the API: its schema, when it has one, only checks the query
  const route = { config: { public: true }, ...(options.query === undefined ? {} : { schema: withQuery({ hide: true }, options) }) }
  // the console's settings, read by the page once; public like the page, as nothing in them is secret
  const settings = JSON.stringify({ engine_ui_url: options.settings?.engineUiUrl === '' ? null : options.settings?.engineUiUrl ?? null })
  app.get('/console/settings.json', route, async (_request, reply) => {
    reply.headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' })
    return await reply.send(settings)
  })
  for (const [name, file] of files) {
    app.get(`/console/${name}`, route, serve(file))
    if (name === 'index.html') {
      app.get('/console', route, serve(file))
      app.get('/console/', route, serve(file))
    }
  }
}
