// Differences between stub-site's imitation and the real API server that stay, each with the reason (also listed in
// packages/stub-site/README.md). A difference not matched here fails the differential test; one matched by an entry
// with a check stays known only while the check holds.
import { genericPath, type Difference } from '../../src/compare.ts'

export interface Known {
  call?: RegExp
  path: RegExp
  reason: string
  /** What must still agree for the difference to be the known one. */
  holds?: (stub: unknown, real: unknown) => boolean
}

/** The refused values a validation message quotes, in order, and the text before the first of them. */
function quoted (text: unknown): string {
  if (typeof text !== 'string') return ''
  const at = text.indexOf('Invalid value: ')
  const values = [...text.matchAll(/Invalid value: ("(?:[^"\\]|\\.)*")/g)].map((m) => m[1])
  return JSON.stringify([at < 0 ? text : text.slice(0, at), text.startsWith('[') || text.includes(': ['), values])
}
const sameQuotes = (stub: unknown, real: unknown): boolean => quoted(stub) === quoted(real)
/** The real server quotes a patch it cannot decode in Go's rendering of it; the stand-in quotes the JSON. */
const samePatchPrefix = (stub: unknown, real: unknown): boolean =>
  [stub, real].every((t) => typeof t === 'string' && /^( "" is invalid: patch: )?Invalid value: "/.test(t)) &&
  (stub as string).startsWith(' ') === (real as string).startsWith(' ')

export const KNOWN: Known[] = [
  {
    path: /^(items\[\]\.)?metadata\.managedFields$/,
    reason: 'server-side apply\'s record of which client set which field: nothing in Slipway reads it, and the stand-in keeps no field managers'
  },
  {
    call: /^patch invalid label (key|value)$|^patch invalid key prefix$/,
    path: /^(message|details\.causes\[\]\.message)$/,
    reason: 'the label rule is explained in the stand-in\'s own words; the object, the field, the refused value, the status and the reason are the same',
    holds: sameQuotes
  },
  {
    call: /^patch with labels not a map$|^cordon with a value not a boolean$/,
    path: /^(message|details\.causes\[\]\.message)$/,
    reason: 'the real server quotes the undecodable patch in Go\'s rendering and explains in its own decoder\'s words; the stand-in quotes the JSON and explains in its own',
    holds: samePatchPrefix
  },
  {
    call: /^list the deleted node's pods$/,
    path: /^items$/,
    reason: 'Kubernetes\' pod garbage collector (kube-controller-manager, not run here) deletes the pods of a deleted node; the real server alone keeps them. stub-site plays the collector',
    holds: (stub) => Array.isArray(stub) && stub.length === 0
  }
]

export function knownReason (difference: Difference): string | undefined {
  return KNOWN.find((k) => (k.call === undefined || k.call.test(difference.call)) && k.path.test(genericPath(difference.path)) &&
    (k.holds === undefined || k.holds(difference.values.stub, difference.values.real)))?.reason
}
