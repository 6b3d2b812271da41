// Substitution: values copied from source documents into a document's data at paths, whole or into a pattern.
import { compileRegex, docRef, err, type Node, type RenderOptions } from './render-node.ts'
import { getAt, getSourceAt, parsePath, PathError, setAt, type Segment } from './paths.ts'
import { clone, isMapping, pyStr, setKey } from './values.ts'
import type { StoreError } from '../errors.ts'

function replacePattern (text: string, pattern: RegExp, value: unknown): string {
  const replacement = typeof value === 'string' ? value : pyStr(value)
  return text.replace(pattern, () => replacement)
}

function recurseReplace (value: unknown, pattern: RegExp, literal: string, v: unknown, depth: number): unknown {
  if (depth === 0) return value
  const nextDepth = depth < 0 ? depth : depth - 1
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      if (typeof item !== 'string') value[i] = recurseReplace(item, pattern, literal, v, nextDepth)
      else if (item.includes(literal)) value[i] = replacePattern(item, pattern, v)
    }
  } else if (isMapping(value)) {
    for (const k in value) {
      const item = value[k]
      if (typeof item !== 'string') value[k] = recurseReplace(item, pattern, literal, v, nextDepth)
      else if (item.includes(literal)) value[k] = replacePattern(item, pattern, v)
    }
  }
  return value
}

/**
 * Issue 21: Deckhand's jsonpath-ng writes only the first element of a list substituted into a list index
 * (`.hosts[1]`), silently dropping the rest. No site means that, so the stand-in refuses it with a 400 that names
 * the difference instead of rendering something Deckhand would render differently.
 */
function listIntoIndex (n: Node, destPath: string): StoreError {
  return err(400, 'SubstitutionDestinationInvalid',
    `Cannot substitute a list into the list index ${destPath} of ${docRef(n.doc)}: Deckhand writes only the list's first element there. Substitute into the parent path, or one element with src.path.`)
}

export function substitute (n: Node, subs: unknown[], sources: Map<string, Node>, options: RenderOptions): void {
  for (const sub of subs) {
    if (!isMapping(sub) || !isMapping(sub.src)) continue
    const src = sub.src
    const source = sources.get(`${String(src.schema)}\u0000${String(src.name)}`)
    if (source === undefined) {
      throw err(409, 'SubstitutionSourceNotFound',
        `Required substitution source document [${String(src.schema)}] ${String(src.name)} was not found, yet is referenced by [${n.doc.schema}] ${n.doc.name}.`)
    }
    const srcPath = String(src.path)
    let value: unknown
    const sourceData = source.current
    try {
      value = isMapping(sourceData) ? getSourceAt(sourceData, parsePath(srcPath)) : sourceData
    } catch (error) {
      throw err(400, 'SubstitutionSourceDataNotFound',
        `Invalid src.path ${srcPath} in a substitution of ${docRef(n.doc)}: ${(error as Error).message}`)
    }
    if (value === undefined || value === null) {
      throw err(400, 'SubstitutionSourceDataNotFound',
        `Required substitution source secret was not found at path ${srcPath} in source document [${source.doc.schema}, ${source.doc.layer}] ${source.doc.name} which is referenced by destination document [${n.doc.schema}, ${n.doc.layer}] ${n.doc.name} under its \`metadata.substitutions\`.`)
    }
    if (typeof src.pattern === 'string') {
      if (typeof value !== 'string') {
        throw err(400, 'SubstitutionSourceDataNotFound',
          `The substitution source value at path ${srcPath} in [${source.doc.schema}] ${source.doc.name} must be a string to apply src.pattern ${src.pattern}.`)
      }
      const m = compileRegex(src.pattern, '').exec(value)
      if (m !== null) {
        const group = typeof src.match_group === 'number' ? src.match_group : 0
        const g = m[group]
        if (g === undefined) {
          throw err(400, 'SubstitutionSourceDataNotFound',
            `The src.pattern ${src.pattern} has no group ${group} (substitution of ${docRef(n.doc)}).`)
        }
        value = g
      }
    }
    const dests = Array.isArray(sub.dest) ? sub.dest : [sub.dest]
    for (const d of dests) {
      if (!isMapping(d)) continue
      const destPath = String(d.path)
      let segs: Segment[]
      try {
        segs = parsePath(destPath)
      } catch (error) {
        throw err(400, 'InvalidDocumentFormat', `Invalid dest.path ${destPath} in ${docRef(n.doc)}: ${(error as Error).message}`)
      }
      try {
        if (typeof d.pattern !== 'string') {
          if (Array.isArray(value) && typeof segs[segs.length - 1] === 'number') throw listIntoIndex(n, destPath)
          const v = clone(value)
          if (segs.length === 0) {
            if (isMapping(n.current) && isMapping(v)) for (const k of Object.keys(v)) setKey(n.current, k, v[k])
            else n.current = v
          } else {
            n.current = setAt(n.current, segs, v)
          }
          continue
        }
        const pattern = compileRegex(d.pattern, 'g')
        const target = getAt(n.current, segs)
        const recurse = isMapping(d.recurse) ? d.recurse : undefined
        if (typeof target === 'string') {
          n.current = setAt(n.current, segs, replacePattern(target, pattern, value))
        } else if (recurse !== undefined && (Array.isArray(target) || isMapping(target))) {
          recurseReplace(target, pattern, d.pattern, value, typeof recurse.depth === 'number' ? recurse.depth : -1)
        } else {
          throw err(400, 'MissingDocumentPattern',
            `The destination document's \`data\` section is missing the pattern ${d.pattern} specified under \`substitutions.dest.pattern\` at path ${destPath}, specified under \`substitutions.dest.path\`.`)
        }
      } catch (error) {
        if (error instanceof PathError) {
          throw err(400, 'SubstitutionDestinationInvalid', `Cannot substitute into ${docRef(n.doc)} at ${destPath}: ${error.message}`)
        }
        throw error
      }
    }
    if (source.metadata.storagePolicy === 'encrypted' && !options.cleartextSecrets) n.encryptedSource = true
  }
  if (n.encryptedSource && n.metadata.storagePolicy !== 'encrypted') {
    n.metadata = { ...n.metadata, storagePolicy: 'encrypted' }
  }
}
