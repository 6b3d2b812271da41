// What rendering works on: a document and its place in the revision's graph, and the helpers every step of the
// render shares (its errors and how they name a document).
import { StoreError } from '../errors.ts'
import type { Mapping } from './values.ts'

export interface RenderDocument {
  id: number
  schema: string
  name: string
  layer: string
  metadata: Mapping
  /** For encrypted documents, the secret (already resolved from its reference). */
  data: unknown
  bucket: string
  /** Origin revision, shown as `status.revision`. */
  revision: number
}

export interface Node {
  doc: RenderDocument
  index: number
  control: boolean
  abstract: boolean
  replacement: boolean
  selector: Mapping | undefined
  actions: unknown[] | undefined
  layerIndex: number
  parent: Node | undefined
  parentCount: number
  replacedBy: Node | undefined
  current: unknown
  metadata: Mapping
  encryptedSource: boolean
  deps: Node[]
}

export interface RenderOptions {
  cleartextSecrets: boolean
  /** Layering actions as Deckhand applies them (quirks.ts): `.data` cut as text, `delete` of the first equal value. */
  deckhandQuirks?: boolean
}

export const err = (status: number, type: string, message: string): StoreError => new StoreError(status, type, message)

export const docRef = (d: RenderDocument): string => `[${d.schema}, ${d.layer === '' ? 'None' : d.layer}] ${d.name}`

/** Python-flavoured regex source to JavaScript (named groups). */
export function compileRegex (source: string, flags: string): RegExp {
  try {
    return new RegExp(source.replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>'), flags)
  } catch (error) {
    throw err(400, 'InvalidSubstitutionPattern',
      `The substitution pattern ${source} is not a valid regular expression: ${(error as Error).message}`)
  }
}
