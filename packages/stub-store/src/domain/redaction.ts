// Secrets in listings: whether a request gets cleartext, and the redaction of encrypted documents.
import { RULES, type Access } from './access.ts'
import { parseCleartext, type ListedDocument, type Query } from './filters.ts'
import { isMapping, redactionHash, type Mapping } from './values.ts'

/**
 * Whether secrets are shown. An explicit `cleartext-secrets` decides; absent, the
 * store answers as Deckhand does: cleartext for a caller the rule `deckhand:show_cleartext_documents` allows,
 * redacted for anyone else. This replaces an earlier choice (absent = redacted): real Promenade and Drydock
 * fetch a design reference without the parameter and must get from the stand-in what Deckhand gives them.
 */
export function showsCleartext (query: Query, access: Access): boolean {
  return parseCleartext(query) ?? access.can(RULES.showCleartext)
}

/** A copy of one substitution with `src.path` and every `dest.path` replaced by their redaction hashes. */
function redactSubstitutionPaths (sub: Mapping): Mapping {
  const copy = { ...sub }
  if (isMapping(sub.src) && 'path' in sub.src) copy.src = { ...sub.src, path: redactionHash(sub.src.path) }
  if (Array.isArray(sub.dest)) copy.dest = sub.dest.map((d) => isMapping(d) && 'path' in d ? { ...d, path: redactionHash(d.path) } : d)
  else if (isMapping(sub.dest) && 'path' in sub.dest) copy.dest = { ...sub.dest, path: redactionHash(sub.dest.path) }
  return copy
}

/**
 * Redaction of one listed document when secrets are not asked for: data and the paths of every
 * substitution hashed. A rendered document that took a secret is marked encrypted when rendered, so this also
 * hides where a substituted secret came from; rendering leaves every path unhashed, so each is hashed exactly once.
 */
export function redact (doc: ListedDocument): ListedDocument {
  if (doc.metadata.storagePolicy !== 'encrypted') return doc
  const metadata = { ...doc.metadata }
  if (Array.isArray(metadata.substitutions)) {
    metadata.substitutions = metadata.substitutions.map((s) => isMapping(s) ? redactSubstitutionPaths(s) : s)
  }
  return { ...doc, metadata, data: redactionHash(doc.data) }
}
