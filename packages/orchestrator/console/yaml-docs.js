// Reading the document store's YAML as the Documents view needs it, without a YAML library: the store writes
// block-style documents separated by `---` lines, with `schema`, `metadata` and the store's own `id` and `status`
// at the top level. Only those top-level facts are read; the documents themselves are shown as text.

const SEPARATOR = /^---(\s|$)/

/** The documents of a multi-document text, each as its own text. */
export function splitDocuments (text) {
  const docs = []
  let current = []
  for (const line of text.split('\n')) {
    if (SEPARATOR.test(line)) { docs.push(current); current = []; continue }
    if (line === '...') continue
    current.push(line)
  }
  docs.push(current)
  return docs.map((lines) => lines.join('\n').replace(/\n+$/, '')).filter((doc) => doc.trim() !== '')
}

const plain = (value) => value.trim().replace(/^'(.*)'$/, (_, inner) => inner.replaceAll("''", "'")).replace(/^"(.*)"$/, '$1')

/** `{ schema, name, layer, storagePolicy }` of one document's text; '' for what it does not say. */
export function factsOf (doc) {
  const facts = { schema: '', name: '', layer: '', storagePolicy: '' }
  let inMetadata = false
  let inLayering = false
  for (const line of doc.split('\n')) {
    const top = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (top !== null) {
      inMetadata = top[1] === 'metadata'
      inLayering = false
      if (top[1] === 'schema') facts.schema = plain(top[2])
      continue
    }
    if (!inMetadata) continue
    const second = /^ {2}([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (second !== null) {
      inLayering = second[1] === 'layeringDefinition'
      if (second[1] === 'name') facts.name = plain(second[2])
      if (second[1] === 'storagePolicy') facts.storagePolicy = plain(second[2])
      continue
    }
    const third = /^ {4}layer:\s*(.*)$/.exec(line)
    if (inLayering && third !== null) facts.layer = plain(third[1])
  }
  return facts
}

/**
 * The text without the store's bookkeeping: each document's top-level `id` and `status` (bucket, revision), which
 * differ between any two revisions and would make every document look changed.
 */
export function withoutBookkeeping (text) {
  const out = []
  let skipping = false
  for (const line of text.split('\n')) {
    if (SEPARATOR.test(line)) { skipping = false; out.push(line); continue }
    if (/^id:\s/.test(line)) continue
    if (/^status:\s*$/.test(line)) { skipping = true; continue }
    if (skipping && /^(\s|-\s)/.test(line)) continue
    skipping = false
    out.push(line)
  }
  return out.join('\n')
}
