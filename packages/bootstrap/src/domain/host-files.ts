// HostSystem `files`: the URLs to fetch for them, and the archive entries they become —
// content, a symlink, a fetched file, or one member of a fetched tarball (unpacked off the event loop).
import { DesignError, dataAt, type DesignDocument } from './documents.ts'
import { record, where } from './design-values.ts'
import { tarMemberBody, type TarEntry } from './tar.ts'
import type { FileBody, RemoteFiles } from '../types.ts'

export type { RemoteFiles } from '../types.ts'

const SOURCE_KEYS = ['content', 'symlink', 'url', 'tar_url'] as const

/** The URLs a design's HostSystem files are fetched from (`url`, `tar_url`); each must be http(s). */
export function remoteFileUrls (documents: DesignDocument[]): string[] {
  const hostSystem = documents.find((d) => d.schema === 'promenade/HostSystem/v1')
  const files = dataAt(hostSystem, 'files')
  const urls = new Set<string>()
  for (const [i, item] of (Array.isArray(files) ? files : []).entries()) {
    const file = record(item)
    for (const key of ['url', 'tar_url'] as const) {
      const value = file[key]
      if (value === undefined) continue
      if (typeof value !== 'string' || !/^https?:\/\/[^/\s]+/.test(value)) {
        throw new DesignError(`${where(hostSystem as DesignDocument, `files[${i}].${key}`)} must be an http(s) URL`)
      }
      urls.add(value)
    }
  }
  return [...urls]
}

/** HostSystem `files` as archive entries: content, symlink, a fetched url, or one member of a fetched tarball. */
export async function hostSystemFiles (hostSystem: DesignDocument, remote: RemoteFiles): Promise<TarEntry[]> {
  const files = dataAt(hostSystem, 'files')
  if (files !== undefined && !Array.isArray(files)) throw new DesignError(`${where(hostSystem, 'files')} must be a list`)
  const entries: TarEntry[] = []
  for (const [i, item] of (files as unknown[] ?? []).entries()) entries.push(await hostSystemFile(hostSystem, item, i, remote))
  return entries
}

/** One HostSystem file as an archive entry; a tarball member is unpacked off the event loop. */
async function hostSystemFile (hostSystem: DesignDocument, item: unknown, i: number, remote: RemoteFiles): Promise<TarEntry> {
  const file = record(item)
  const at = (key: string): string => where(hostSystem, `files[${i}].${key}`)
  const path = file.path
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (typeof path !== 'string' || !path.startsWith('/') || path.split('/').includes('..') || /[\u0000-\u001f]/.test(path) || path === '/') {
    throw new DesignError(`${at('path')} must be an absolute file path without '..' or control characters`)
  }
  const mode = file.mode ?? 0o644
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
    throw new DesignError(`${at('mode')} must be a file mode (0-4095, YAML 0755 is 493)`)
  }
  const sources = SOURCE_KEYS.filter((key) => file[key] !== undefined)
  if (sources.length !== 1) {
    throw new DesignError(`${where(hostSystem, `files[${i}]`)} (${path}) needs exactly one of content, symlink, url or tar_url`)
  }
  const entry = { path: path.slice(1), mode }
  if (file.content !== undefined) {
    if (typeof file.content !== 'string') throw new DesignError(`${at('content')} must be a string`)
    return { ...entry, content: file.content }
  }
  if (file.symlink !== undefined) {
    if (typeof file.symlink !== 'string' || file.symlink === '') throw new DesignError(`${at('symlink')} must be a path`)
    return { ...entry, symlink: file.symlink }
  }
  const url = String(file.url ?? file.tar_url)
  const bytes = remote.get(url)
  if (bytes === undefined) throw new DesignError(`${at(file.url === undefined ? 'tar_url' : 'url')}: ${url} was not fetched`)
  if (file.url !== undefined) return { ...entry, content: bytes }
  if (typeof file.tar_path !== 'string' || file.tar_path === '') {
    throw new DesignError(`${at('tar_path')} must name the member of ${url} to use`)
  }
  let member: FileBody | undefined
  try {
    // the tarball is read through to find its member, and again as the member is written: never held unpacked
    member = await tarMemberBody(bytes, file.tar_path)
  } catch (error) {
    throw new DesignError(`${at('tar_url')}: ${url} is ${(error as Error).message}`)
  }
  if (member === undefined) throw new DesignError(`${at('tar_path')}: ${url} has no file ${file.tar_path}`)
  return { ...entry, content: member }
}
