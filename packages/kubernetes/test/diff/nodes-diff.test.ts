// The differential test: stub-site's imitation of the Kubernetes API held to a real kube-apiserver. Both hold the
// same nodes (the real server's made from stub-site's answers); the scenario of every Kubernetes request Slipway
// makes (scenario.ts) runs against each, and every answer pair is compared (status, then the bodies with uids,
// timestamps, resourceVersions and continue tokens made equal), and so is whether a write moved the
// resourceVersion. Every difference is printed, one line each; one not listed in known.ts fails the test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { loadConfig as siteConfig, startSite, type RunningSite } from '@slipway/stub-site'
import { createKubeApi, type KubeApi } from '../../src/api.ts'
import { compareAnswers, genericPath, type Difference } from '../../src/compare.ts'
import { startKubernetes, type Kubernetes } from '../../src/kubernetes.ts'
import { onRealKubernetes } from '../helpers/real.ts'
import { knownReason } from './known.ts'
import { mirrorPods, REFUSED_EVICTIONS } from './mirror.ts'
import { resourceVersionOf, runScenario, SCENARIO_NODES, type Recorded, type Role, type Target } from './scenario.ts'
import { runWorkloadScenario } from './scenario-workloads.ts'

const STUB_TOKENS: Record<Role, string> = { bootstrap: 'stub-bootstrap-token', admin: 'stub-admin-token', unknown: 'not-a-known-token' }

interface ShownNode { metadata: { labels: Record<string, string> }, status: Record<string, unknown> }

onRealKubernetes('stub-site\'s Kubernetes API against the real one', () => {
  const say = (line: string): void => { console.log(`[kube-diff] ${line}`) }
  let kube: Kubernetes
  let site: RunningSite
  let stubApi: KubeApi
  let dir: string
  const recorded: Partial<Record<Target['name'], Recorded[]>> = {}

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-kube-diff-'))
    const nodesFile = join(dir, 'nodes.yaml')
    writeFileSync(nodesFile, stringify({ nodes: SCENARIO_NODES.map((n) => ({ ...n, status_name: 'Deployed', power_state: 'on' })) }))
    site = await startSite(siteConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      SITE_NODES_FILE: nodesFile,
      SITE_AUTH_TOKENS: `${STUB_TOKENS.bootstrap},${STUB_TOKENS.admin}`,
      // the real server has no kubelet to finish a graceful delete: stub-site's waits longer than the scenario
      SITE_POD_TERMINATION_MS: '600000',
      SITE_EVICTION_REFUSED: `${REFUSED_EVICTIONS.label}=${REFUSED_EVICTIONS.value}`
    }), { logger: false })
    stubApi = createKubeApi(site.url)
    kube = await startKubernetes()
    say(`kube-apiserver ready at ${kube.server} in ${kube.startMs} ms`)
    // the real server's nodes: stub-site's, as it shows them (labels, and the status a kubelet would report), ready
    for (const seed of SCENARIO_NODES) {
      const shown = await stubApi.call('GET', `/api/v1/nodes/${seed.hostname}`, { token: STUB_TOKENS.admin })
      const node = shown.json as ShownNode
      await kube.createNode({ name: seed.hostname, labels: node.metadata.labels, status: node.status, ready: true })
    }
    const ids = kube.identities
    const pods = await mirrorPods({ api: stubApi, token: STUB_TOKENS.admin }, { api: kube.api, token: ids.admin.token })
    say(`${pods} pods of stub-site created on the real server`)
    const realTokens: Record<Role, string> = { bootstrap: ids.bootstrap.token, admin: ids.admin.token, unknown: STUB_TOKENS.unknown }
    const on = (name: Target['name'], api: KubeApi, tokens: Record<Role, string>): Target => ({
      name, call: async (method, path, role, body, contentType) => await api.call(method, path, { token: tokens[role], body, contentType })
    })
    const targets = [on('stub-site', stubApi, STUB_TOKENS), on('kube-apiserver', kube.api, realTokens)]
    for (const target of targets) recorded[target.name] = [...await runScenario(target), ...await runWorkloadScenario(target)]
  })
  afterAll(async () => {
    await stubApi?.close()
    await site?.close()
    await kube?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('answers every request as the real API server does, but for the differences listed with their reasons', () => {
    const stub = recorded['stub-site'] ?? []
    const real = recorded['kube-apiserver'] ?? []
    expect(stub.map((r) => r.call)).toEqual(real.map((r) => r.call))
    const differences: Difference[] = []
    stub.forEach((s, i) => { differences.push(...compareAnswers(s.call, s.answer, real[i]!.answer)) })
    // whether each Node answer moved the resourceVersion from the one before it, on each side
    const moves = (records: Recorded[]): string[] => {
      const last = new Map<string, string>()
      return records.map((r) => {
        const rv = resourceVersionOf(r.answer)
        const name = (r.answer.json as { metadata?: { name?: string } } | undefined)?.metadata?.name ?? ''
        if (rv === undefined) return '-'
        const moved = last.has(name) ? (last.get(name) === rv ? 'same' : 'moved') : 'first'
        last.set(name, rv)
        return moved
      })
    }
    const [stubMoves, realMoves] = [moves(stub), moves(real)]
    stub.forEach((s, i) => {
      if (stubMoves[i] !== realMoves[i]) {
        differences.push({ call: s.call, path: 'resourceVersion move', stub: stubMoves[i]!, real: realMoves[i]!, values: { stub: stubMoves[i], real: realMoves[i] } })
      }
    })
    const unknown: Difference[] = []
    // the known ones once per path and reason, with the calls they were seen in; the others one line each
    const known = new Map<string, { calls: Set<string>, example: Difference }>()
    for (const d of differences) {
      const reason = knownReason(d)
      if (reason === undefined) { unknown.push(d); continue }
      const key = `${genericPath(d.path)} — known: ${reason}`
      const entry = known.get(key) ?? { calls: new Set<string>(), example: d }
      entry.calls.add(d.call)
      known.set(key, entry)
    }
    say(`${stub.length} requests compared: ${differences.length} differences, ${unknown.length} not known`)
    for (const [key, { calls, example }] of known) {
      say(`${key} (${[...calls].join('; ')}), e.g. stub-site ${example.stub}, kube-apiserver ${example.real}`)
    }
    for (const d of unknown) say(`NOT KNOWN ${d.call}: ${d.path}: stub-site ${d.stub}, kube-apiserver ${d.real}`)
    expect(unknown).toEqual([])
  })
})
