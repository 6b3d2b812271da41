// The path language of layering actions and substitutions (Deckhand's jsonpath subset): `.a.b`, `$.a`, `.list[2].x`,
// `[0][1]`, quoted keys; reading, writing (creating what is missing) and deleting at a path.
import { isMapping, ownValue, setKey, WholeFloat, type Mapping } from './values.ts'

export type Segment = string | number

export class PathError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'PathError'
  }
}

// A dotted name made only of digits (`.ports.8080`) is a mapping key, never a list index: Deckhand's jsonpath-ng
// reads it so, and stored keys are strings on both sides (Deckhand keeps data as JSON), so `8080:` written
// unquoted in YAML is found by it too. Only brackets (`[0]`) index lists. Issue 21: the stand-in follows Deckhand.
const NAME = /^[^.[\]'"*?()$]+/

const parsed = new Map<string, Segment[]>()

/** Segments of a path; `.` and `$` are the whole value (no segments). */
export function parsePath (path: string): Segment[] {
  const cached = parsed.get(path)
  if (cached !== undefined) return cached
  let s = path.trim()
  if (s.startsWith('$')) s = s.slice(1)
  if (s !== '' && !s.startsWith('.') && !s.startsWith('[')) s = '.' + s
  const out: Segment[] = []
  let i = 0
  while (i < s.length) {
    const c = s[i]
    if (c === '.') {
      i++
      if (i >= s.length) break // a trailing dot (`.` alone) adds nothing
      const q = s[i]
      if (q === "'" || q === '"') {
        const end = s.indexOf(q, i + 1)
        if (end < 0) throw new PathError(`Unterminated quoted key in path ${path}`)
        out.push(s.slice(i + 1, end))
        i = end + 1
        continue
      }
      const m = NAME.exec(s.slice(i))
      if (m === null) throw new PathError(`Unsupported path ${path}`)
      out.push(m[0].trim())
      i += m[0].length
    } else if (c === '[') {
      const end = s.indexOf(']', i)
      if (end < 0) throw new PathError(`Unterminated index in path ${path}`)
      const inner = s.slice(i + 1, end).trim()
      if (/^\d+$/.test(inner)) out.push(Number(inner))
      else if (/^'[^']*'$|^"[^"]*"$/.test(inner)) out.push(inner.slice(1, -1))
      else throw new PathError(`Unsupported path ${path}: only list indexes and quoted keys may appear in brackets`)
      i = end + 1
    } else {
      throw new PathError(`Unsupported path ${path}`)
    }
  }
  if (parsed.size > 10_000) parsed.clear()
  parsed.set(path, out)
  return out
}

/** Layering action paths: a leading `.data`/`$.data` names the data section itself. */
export function parseActionPath (path: string): Segment[] {
  const stripped = path.replace(/^\$?\.data(?=$|[.[])/, '')
  return parsePath(stripped === '' ? '.' : stripped)
}

/** The value at a path, or undefined when it does not resolve. */
export function getAt (root: unknown, segments: Segment[]): unknown {
  let cur = root
  for (const seg of segments) {
    if (typeof seg === 'number') {
      if (!Array.isArray(cur) || seg >= cur.length) return undefined
      cur = cur[seg]
    } else {
      if (!isMapping(cur) || !Object.hasOwn(cur, seg)) return undefined
      cur = cur[seg]
    }
  }
  return cur
}

/**
 * The value at a substitution's `src.path`. Deckhand's jsonpath-ng indexes a string as it indexes a list, so
 * `.word[0]` is the string's first character, counted in code points as Python counts them. Issue 21: the
 * stand-in follows Deckhand here, since the result is well defined and a site may rely on it; only reads do this
 * (a destination inside a string is still refused).
 */
export function getSourceAt (root: unknown, segments: Segment[]): unknown {
  let cur = root
  for (const seg of segments) {
    if (typeof cur === 'string' && typeof seg === 'number') {
      cur = Array.from(cur)[seg]
      if (cur === undefined) return undefined
    } else {
      cur = getAt(cur, [seg])
      if (cur === undefined) return undefined
    }
  }
  return cur
}

function emptyFor (next: Segment | undefined): unknown {
  return typeof next === 'number' ? [] : {}
}

/**
 * Stores `value` at a path inside `root` (a container), creating missing mappings and list slots
 * (lists padded with `{}`); walking into an existing scalar is an error. Returns the new root.
 */
export function setAt (root: unknown, segments: Segment[], value: unknown): unknown {
  if (segments.length === 0) return value
  let base = root
  if (base === null || base === undefined) base = emptyFor(segments[0])
  let cur: unknown = base
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as Segment
    const last = i === segments.length - 1
    const next = segments[i + 1]
    if (typeof seg === 'number') {
      if (!Array.isArray(cur)) throw new PathError(`Cannot index ${describe(cur)} with [${seg}]`)
      while (cur.length < seg) cur.push({})
      if (last) { cur[seg] = value; break }
      if (cur[seg] === undefined || cur[seg] === null) cur[seg] = emptyFor(next)
      cur = cur[seg]
    } else {
      if (!isMapping(cur)) throw new PathError(`Cannot set key '${seg}' inside ${describe(cur)}`)
      // own keys only: `__proto__` or `constructor` on a path is a key of the document, never the prototype's
      if (last) { setKey(cur, seg, value); break }
      let child = ownValue(cur, seg)
      if (child === undefined || child === null) setKey(cur, seg, child = emptyFor(next))
      cur = child
    }
  }
  return base
}

/** Removes the entry at a path; false when the path does not resolve. */
export function deleteAt (root: unknown, segments: Segment[]): boolean {
  if (segments.length === 0) return false
  const parent = getAt(root, segments.slice(0, -1))
  const seg = segments[segments.length - 1] as Segment
  if (typeof seg === 'number') {
    if (!Array.isArray(parent) || seg >= parent.length) return false
    parent.splice(seg, 1)
    return true
  }
  if (!isMapping(parent) || !Object.hasOwn(parent, seg)) return false
  delete (parent as Mapping)[seg]
  return true
}

function describe (value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (isMapping(value)) return 'a mapping'
  if (value instanceof WholeFloat) return `the number ${value.toString()}`
  return `the ${typeof value} ${JSON.stringify(value)}`
}
