// In-memory stand-ins for the orchestrator's clients, for route tests that need the real app but no real component:
// each does what the orchestrator relies on and no more, and records what it was asked.
import { parse as parseYaml, parseAllDocuments } from 'yaml'
import { DownstreamError, NotFoundError, type ValidationMessage } from '@slipway/common'
import { StoreRejection, type DiffStatus, type StoreClient } from '../../src/clients/store.ts'
import type { EngineClient, EngineDag, EngineRun, EngineTask } from '../../src/clients/engine.ts'
import type { ValidatorClient } from '../../src/clients/validators.ts'
import type { ProvisionerClient, ProvisionerNode } from '../../src/clients/provisioner.ts'
import type { NoteFetcher } from '../../src/clients/note-source.ts'
import { ACTIONS } from '../../src/domain/catalog.ts'

/** A revision of the fake store: every collection's text (a collection absent has no documents) and its tags. */
interface FakeRevision { id: number, tags: string[], collections: Map<string, string> }

/**
 * A document store kept in memory, as Deckhand behaves for the orchestrator: each write of a collection that changes
 * it makes a revision holding every collection; a body that is not YAML is refused with 400; rendering answers the
 * revision's documents as they are (no layering or substitution) and the store finds nothing to report.
 */
export function fakeStore () {
  const revisions: FakeRevision[] = []
  const collectionsAt = (id: number): Map<string, string> => {
    if (id === 0) return new Map()
    const revision = revisions.find((r) => r.id === id)
    if (revision === undefined) throw new DownstreamError('store', `revision ${id} not found`, { upstreamStatus: 404 })
    return revision.collections
  }
  const client: StoreClient = {
    baseUrl: 'http://store.test/api/v1.0',
    async revisions () {
      return revisions.map((r) => ({ id: r.id, tags: [...r.tags] }))
    },
    async diff (from, to) {
      const [before, after] = [collectionsAt(from), collectionsAt(to)]
      const names = [...new Set([...before.keys(), ...after.keys()])]
      return Object.fromEntries(names.map((name): [string, DiffStatus] => {
        const [was, is] = [before.get(name), after.get(name)]
        return [name, was === undefined ? 'created' : is === undefined ? 'deleted' : was === is ? 'unmodified' : 'modified']
      }))
    },
    async putCollection (collection, yamlText) {
      const broken = parseAllDocuments(yamlText).flatMap((document) => document.errors)
      if (broken.length > 0) {
        throw new StoreRejection(400, JSON.stringify({
          message: 'The request body must be properly formatted YAML/JSON.',
          details: { messageList: broken.map((error) => ({ message: error.message, error: true })) }
        }))
      }
      const latest = revisions.at(-1)?.collections ?? new Map<string, string>()
      const text = yamlText.trim() === '' ? undefined : yamlText
      if (latest.get(collection) === text) return
      const collections = new Map(latest)
      if (text === undefined) collections.delete(collection)
      else collections.set(collection, text)
      revisions.push({ id: revisions.length + 1, tags: [], collections })
    },
    async tag (revisionId, tag) {
      const revision = revisions.find((r) => r.id === revisionId)
      if (revision === undefined) throw new DownstreamError('store', `revision ${revisionId} not found`, { upstreamStatus: 404 })
      revision.tags.push(tag)
    },
    async documents (revisionId, options) {
      const collections = collectionsAt(revisionId)
      const texts = options.collection === undefined ? [...collections.values()] : [collections.get(options.collection) ?? '']
      return texts.filter((text) => text !== '').join('\n')
    },
    async rendered (revisionId) {
      return { ok: true, text: [...collectionsAt(revisionId).values()].join('\n') }
    },
    async validationPolicies () {
      return []
    },
    async validationsDetail () {
      return []
    },
    parseYaml: <T>(text: string): T => parseYaml(text) as T
  }
  return { client, revisions }
}

/**
 * A workflow engine kept in memory: every action's workflow, unpaused; a trigger makes a queued run that stays so,
 * with no task instances. `triggered` lists the runs made, in order.
 */
export function fakeEngine () {
  const runs: EngineRun[] = []
  const paused = new Map<string, boolean>([...new Set(Object.values(ACTIONS).map((a) => a.dagId))].map((dagId) => [dagId, false]))
  const dagOf = (dagId: string): EngineDag => {
    const isPaused = paused.get(dagId)
    if (isPaused === undefined) throw new NotFoundError('Not found in the workflow engine', `DAG ${dagId} not found`, { errorType: 'AirflowError' })
    return { dag_id: dagId, is_paused: isPaused } as EngineDag
  }
  const client: EngineClient = {
    async dag (dagId) { return dagOf(dagId) },
    async setPaused (dagId, isPaused) { dagOf(dagId); paused.set(dagId, isPaused) },
    async trigger (dagId, runId, conf) {
      const existing = runs.find((r) => r.dag_id === dagId && r.dag_run_id === runId)
      if (existing !== undefined) return existing
      const now = new Date().toISOString()
      const run = { dag_id: dagId, dag_run_id: runId, logical_date: now, run_after: now, queued_at: now, start_date: null, end_date: null, state: 'queued', run_type: 'manual', conf, updated_at: now } as unknown as EngineRun
      runs.push(run)
      return run
    },
    async run (dagId, runId) { return runs.find((r) => r.dag_id === dagId && r.dag_run_id === runId) },
    async setRunState (dagId, runId, state) {
      const at = runs.findIndex((r) => r.dag_id === dagId && r.dag_run_id === runId)
      if (at < 0) throw new NotFoundError('Not found in the workflow engine', `run ${runId} not found`, { errorType: 'AirflowError' })
      // a changed run is a new object, as every read of a real engine is: what was made of the old one is not kept
      runs[at] = { ...runs[at], state } as EngineRun
    },
    async runs (filter) { return runs.filter((r) => filter.dagIds === undefined || filter.dagIds.includes(r.dag_id)) },
    async tasks () { return [] as EngineTask[] },
    async tasksOfRuns () { return [] as EngineTask[] },
    async dags () { return [...paused.keys()].map(dagOf) },
    async changedSince () { return { runs: [...runs], tasks: [] as EngineTask[] } },
    async log (dagId, runId, taskId) { throw new NotFoundError('Not found in the workflow engine', `no log of ${dagId}/${runId}/${taskId}`) }
  }
  return { client, triggered: runs }
}

/** Validating components that answer `messages` (none: the design is valid); `designRefs` lists what they were sent. */
export function fakeValidators () {
  const state = { messages: [] as ValidationMessage[], designRefs: [] as string[] }
  const client: ValidatorClient = {
    targets: [{ name: 'Promenade', url: 'http://validator.test/validatedesign' }],
    async validate (designRef) {
      state.designRefs.push(designRef)
      return state.messages
    }
  }
  return { client, state }
}

/** A provisioner whose node inventory is `nodes`; `down` makes it unreachable. */
export function fakeProvisioner (nodes: ProvisionerNode[] = []) {
  const state = { nodes, down: false }
  const client: ProvisionerClient = {
    async nodes () {
      if (state.down) throw new DownstreamError('provisioner', 'connection refused', { failure: 'unreachable' })
      return state.nodes
    }
  }
  return { client, state }
}

/** Note URLs and their text; any other URL cannot be reached. */
export function fakeNoteSource (pages: Record<string, string> = {}) {
  const fetch: NoteFetcher = async (link) => {
    if (!Object.hasOwn(pages, link)) throw new DownstreamError('note source', `${link} cannot be reached`, { failure: 'unreachable' })
    return pages[link] ?? ''
  }
  return { fetch, pages }
}
