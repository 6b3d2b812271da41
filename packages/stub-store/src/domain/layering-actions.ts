// Layering actions: a child's data laid over a copy of its parent's by `merge`, `replace` and `delete` at paths.
import { err, docRef, type Node } from './render-node.ts'
import { deleteAt, getAt, parseActionPath, parsePath, PathError, setAt, type Segment } from './paths.ts'
import { deleteFirstEqual, quirkActionPath } from './quirks.ts'
import { clone, isMapping, ownValue, pyStr, setKey, type Mapping } from './values.ts'
import type { StoreError } from '../errors.ts'

function missingKey (action: unknown, p: Node, c: Node): StoreError {
  return err(400, 'MissingDocumentKey',
    `Missing action path in ${pyStr(action)} needed for layering from either the data section of the parent [${p.doc.schema}, ${p.doc.layer}] ${p.doc.name} or child [${c.doc.schema}, ${c.doc.layer}] ${c.doc.name} document.`)
}

/** Deep-merges `src` into `dst` (mappings recurse, everything else replaced by the child's copy). */
function deepMerge (dst: Mapping, src: Mapping): void {
  for (const k in src) {
    const s = src[k]
    const d = ownValue(dst, k)
    if (isMapping(s) && isMapping(d)) deepMerge(d, s)
    else setKey(dst, k, clone(s))
  }
}

export function applyActions (parentData: unknown, n: Node, quirks: boolean): unknown {
  const p = n.parent as Node
  let work: unknown = parentData === null || parentData === undefined ? {} : clone(parentData)
  const child = n.doc.data
  for (const action of n.actions as unknown[]) {
    const a = isMapping(action) ? action : {}
    const method = a.method
    let segs: Segment[]
    try {
      segs = quirks ? parsePath(quirkActionPath(String(a.path))) : parseActionPath(String(a.path))
    } catch (error) {
      throw err(400, 'InvalidDocumentFormat',
        `Invalid layering action path ${String(a.path)} in document ${docRef(n.doc)}: ${(error as Error).message}`)
    }
    try {
      if (method === 'merge' || method === 'replace') {
        const c = getAt(child, segs)
        if (c === undefined || c === null) throw missingKey(action, p, n)
        if (method === 'merge') {
          const existing = getAt(work, segs)
          if (isMapping(existing) && isMapping(c)) deepMerge(existing, c)
          else work = setAt(work, segs, clone(c))
        } else {
          work = setAt(work, segs, clone(c))
        }
      } else if (method === 'delete') {
        if (segs.length === 0) {
          work = {}
        } else {
          const existing = getAt(work, segs)
          if (existing === undefined || existing === null) throw missingKey(action, p, n)
          if (quirks) deleteFirstEqual(work, existing)
          else deleteAt(work, segs)
        }
      } else {
        throw err(400, 'UnsupportedActionMethod', `Method in ${pyStr(n.actions)} is invalid for document ${docRef(n.doc)}.`)
      }
    } catch (error) {
      if (error instanceof PathError) throw err(400, 'MissingDocumentKey', `${missingKey(action, p, n).message} ${error.message}`)
      throw error
    }
  }
  return work
}
