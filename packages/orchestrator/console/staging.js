// What staging and committing mean, without the DOM: the buffer as GET /configdocs shows it (committed against
// buffer), the buffer modes, the request a staging makes, and the confirmations that say what will happen.
import { findingText } from './validations.js'

/** The staging route's buffer modes, each in the operator's words. */
export const BUFFER_MODES = [
  { mode: 'rejectOnContents', label: 'rejectOnContents: only into an empty buffer' },
  { mode: 'append', label: 'append: beside what is staged (not a collection staged already)' },
  { mode: 'replace', label: 'replace: empty the buffer first, then stage this' }
]

/** A collection's name as the orchestrator takes it: letters, digits, '.', '-', '_', no '..', at most 128. */
const COLLECTION = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/

export function collectionProblem (name) {
  if (name === '') return 'Name the collection.'
  if (!COLLECTION.test(name)) return 'A collection name is 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit.'
  return null
}

/** `site.yaml` → `site`: a file's name as the collection's, when it makes one. */
export function collectionOfFile (fileName) {
  const name = String(fileName).replace(/\.(ya?ml|txt)$/i, '')
  return collectionProblem(name) === null ? name : ''
}

/**
 * The collection name once a file is read: the file's own (`site.yaml` → `site`, '' when it makes none) unless the
 * operator typed the name shown since the last staging. A name left from an earlier file never stays: staged with
 * replace, that file's collection would be overwritten with this one's documents.
 */
export function nameForFile ({ current, typed, fileName }) {
  return typed && String(current).trim() !== '' ? String(current).trim() : collectionOfFile(fileName)
}

/** The collections the buffer changes, `[{ name, status }]` (created, modified, deleted), from committed,buffer. */
export function stagedOf (list) {
  return list.filter((c) => c.new_status !== 'unmodified').map((c) => ({ name: c.collection_name, status: c.new_status }))
}

/** The buffer as it stands, to tell whether a dry run still speaks of it: its revision and each change. */
export function bufferSignature (list) {
  const staged = stagedOf(list)
  return staged.length === 0 ? '' : `${list[0]?.new_revision ?? ''}:${staged.map((c) => `${c.name}=${c.status}`).join(',')}`
}

/** The buffer's revision as committed against buffer names it, or null when the buffer changes nothing. */
export function bufferRevisionOf (list) {
  const revision = list[0]?.new_revision
  return stagedOf(list).length === 0 || !Number.isInteger(revision) ? null : revision
}

/**
 * POST /commitconfigdocs for the buffer revision the console examined: a dry run of it, or its commit (with force past
 * the failures that dry run found). The orchestrator refuses either with 409 once the buffer is another revision, so
 * a change staged meanwhile is never committed unseen.
 */
export function commitPath ({ revision, dryrun = false, force = false }) {
  const query = new URLSearchParams()
  if (dryrun) query.set('dryrun', 'true')
  if (force) query.set('force', 'true')
  query.set('buffer-revision', String(revision))
  return `/commitconfigdocs?${query}`
}

/** The version the rendered documents default to: the buffer when it changes something, else the committed one. */
export const renderedDefault = (list) => stagedOf(list).length > 0 ? 'buffer' : 'committed'

/** POST /configdocs/{collection}: the mode, and empty-collection (the body is then ignored). */
export function stagePath (collection, mode, empty) {
  const query = new URLSearchParams({ buffermode: mode })
  if (empty) query.set('empty-collection', 'true')
  return `/configdocs/${encodeURIComponent(collection)}?${query}`
}

const names = (staged) => staged.map((c) => `${c.name} (${c.status})`).join(', ')
const sizeText = (bytes) => bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`

/** What the buffer mode does with the buffer as it is: `staged` from stagedOf. */
export function modeEffect (mode, collection, staged) {
  const already = staged.some((c) => c.name === collection)
  if (staged.length === 0) return 'The buffer is empty now.'
  if (mode === 'replace') return `The buffer is emptied first: what is staged now, ${names(staged)}, is dropped.`
  if (mode === 'append') {
    return already
      ? `${collection} is staged already, so append is refused; replace empties the buffer first.`
      : `It is added beside what is staged now: ${names(staged)}.`
  }
  return `The buffer holds ${names(staged)}, so rejectOnContents is refused; append stages beside it, replace instead of it.`
}

/**
 * The confirmation of a staging: `documents` and `bytes` of the text sent (none when `empty`); `committed` when the
 * collection is in the committed version (an empty one then deletes its documents at commit).
 */
export function stageConfirmation ({ collection, mode, empty, documents, bytes, staged, committed }) {
  const what = empty
    ? `${collection} is staged empty: at the next commit the collection is deleted${committed ? ', with every document it holds' : ' (it is not in the committed version)'}.`
    : `${documents} ${documents === 1 ? 'document' : 'documents'} (${sizeText(bytes)}) are staged as the collection ${collection}; the store checks them now.`
  return {
    title: empty ? `Stage ${collection} empty?` : `Stage ${collection}?`,
    text: `${what} ${modeEffect(mode, collection, staged)} Nothing changes on the site until the buffer is committed.`,
    items: [`buffermode: ${mode}`, ...(empty ? ['empty-collection: true'] : [])],
    confirmLabel: empty ? 'Stage empty' : 'Stage',
    danger: empty && committed
  }
}

const changeLine = (c) => c.status === 'deleted' ? `${c.name}: deleted, its documents go` : `${c.name}: ${c.status}`

/** The first confirmation of a commit: the changes it makes committed; `failures` from the dry run. */
export function commitConfirmation (staged, failures) {
  const failed = failures.length > 0
  return {
    title: failed ? 'Commit the buffer despite failed validations?' : 'Commit the buffer?',
    text: `The buffer becomes the committed version and is emptied; the next site action runs on it.${failed ? ` The dry run found ${failures.length} failed ${failures.length === 1 ? 'validation' : 'validations'}: the next question names them.` : ''}`,
    items: staged.map(changeLine),
    confirmLabel: failed ? 'Go on' : 'Commit',
    danger: false
  }
}

/** The second confirmation, before force: each failure it goes past. */
export function forceConfirmation (failures) {
  return {
    title: `Force the commit past ${failures.length} failed ${failures.length === 1 ? 'validation' : 'validations'}?`,
    text: 'With force the documents are committed although these validations failed, and site actions would run on them:',
    items: failures.map(findingText),
    confirmLabel: 'Force the commit',
    danger: true
  }
}
