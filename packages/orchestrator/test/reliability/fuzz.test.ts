// Hostile input against every orchestrator route of the route table, generated with fast-check: malformed and
// huge YAML and JSON, alias bombs, wrong content types, invalid ULIDs, traversal, shell metacharacters and unicode
// in ids and query parameters, oversized query strings. Nothing may answer with a 5xx, crash, or answer an error
// without the error body.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AUTH, isErrorBody } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 6000)
const API = '/api/v1.0'
type Stack = Awaited<ReturnType<typeof buildTestStack>>

// names an object already has: a lookup in a plain object finds them where a catalog should find nothing
const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__')
const nasty = fc.oneof(
  prototypeKey,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('../../etc/passwd', '..', '%2e%2e%2f', '$(reboot)', '`id`', "'; rm -rf / #", 'a\nb', 'a=b,c=d', '\u0000', 'n1;ls', '💥',
    'x'.repeat(300), 'x'.repeat(600), '', ' ', 'null', '-1', '1e999', 'NaN')
)
// ULID-shaped and nearly ULID-shaped ids: wrong alphabet, wrong length, lower case, overflowing first character
const ulidish = fc.oneof(
  fc.ulid(),
  fc.ulid().map((id) => id.toLowerCase()),
  fc.ulid().map((id) => `8${id.slice(1)}`),
  fc.ulid().map((id) => id.slice(0, 25)),
  fc.ulid().map((id) => `${id}0`),
  fc.constantFrom('ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'IIIIIIIIIIIIIIIIIIIIIIIIII', '00000000000000000000000000', '../../../../../../../etc/pa')
)
const aliasBomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n'
const document = (schema: string, name: string, data: string): string =>
  `---\nschema: ${schema}\nmetadata:\n  schema: metadata/Document/v1\n  name: ${name}\n  storagePolicy: cleartext\n  layeringDefinition:\n    abstract: false\n    layer: site\ndata: ${data}\n`
const yamlBody = fc.oneof(
  fc.constantFrom(GLOBAL_YAML, SITE_YAML, aliasBomb, '{', '[', ': :', '---\n...\n---\n', '\t- a', 'a: 1\na: 2\n', '\uFEFFa: 1', '!!python/object/apply:os.system ["id"]\n',
    '--- !<tag:yaml.org,2002:js/function> "function () {}"\n', '__proto__:\n  polluted: true\n', 'constructor:\n  prototype:\n    polluted: true\n',
    document('deckhand/Passphrase/v1', '__proto__', '{__proto__: {polluted: true}}'), document('constructor', 'toString', '{}'), `${'['.repeat(2000)}${']'.repeat(2000)}`, `${'- '.repeat(500)}x\n`, 'x'.repeat(300_000), '', 'null', '[]', '42'),
  fc.nat(SITE_YAML.length).map((n) => SITE_YAML.slice(0, n)),
  fc.tuple(fc.nat(GLOBAL_YAML.length), nasty).map(([n, junk]) => `${GLOBAL_YAML.slice(0, n)}${junk}${GLOBAL_YAML.slice(n)}`),
  fc.tuple(nasty, nasty, fc.oneof(nasty, fc.constant('{}'))).map(([schema, name, data]) => document(JSON.stringify(schema), JSON.stringify(name), data)),
  fc.integer({ min: 1, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => document('deckhand/Passphrase/v1', `p${i}`, `secret-${i}`)).join('')),
  fc.json(),
  fc.string({ maxLength: 200 })
)
const parameters = fc.oneof(
  fc.dictionary(nasty, fc.oneof(nasty, fc.constant(null), fc.integer(), fc.array(nasty, { maxLength: 3 }))),
  fc.record({
    target_nodes: fc.oneof(fc.array(fc.oneof(nasty, fc.integer(), fc.constant(null)), { maxLength: 4 }), nasty, fc.constant({}))
  }),
  fc.record({ 'continue-on-fail': fc.oneof(nasty, fc.boolean()) }),
  fc.constantFrom(null, [], 'x', 7, JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown, { constructor: { prototype: 1 }, toString: 'x', valueOf: [] })
)
const actionName = fc.oneof(
  prototypeKey,
  fc.constantFrom('deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes', 'test_site', 'DEPLOY_SITE', 'launch_rockets'),
  nasty,
  fc.constantFrom(1, null, true, ['deploy_site'], { name: 'deploy_site' })
)
const actionBody = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(actionName, fc.option(parameters))
      .map(([name, params]) => JSON.stringify(params === null ? { name } : { name, parameters: params }))
  },
  fc.constantFrom('{"name":', '[]', 'null', '""', '{}', '{"name":"test_site","__proto__":{"x":1}}', '{"name":"test_site"}{"x":1}', `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `{"name":"${'x'.repeat(300_000)}"}`, '{"name":"\\ud800"}', aliasBomb),
  fc.json(),
  fc.string({ maxLength: 200 })
)
const anyBody = fc.oneof(yamlBody, actionBody, fc.constant(undefined))
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/x-yaml', 'application/x-yaml; charset=latin1', 'application/yaml',
  'text/yaml', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/x-www-form-urlencoded', 'application/octet-stream', '*/*', 'json', '')

const boolish = fc.oneof(fc.constantFrom('true', 'false', 'TRUE', 'yes', 'n', 'on', '1', '0', 'maybe', ''), nasty)
const versionName = fc.constantFrom('buffer', 'committed', 'last_site_action', 'successful_site_action', 'BUFFER', 'committed,buffer', 'buffer,committed',
  'successful_site_action,last_site_action', 'buffer,buffer', 'a,b,c', ',', 'committed,,buffer')
/** Plausible and hostile values for each query parameter the routes read. */
const QUERY_VALUES: Record<string, fc.Arbitrary<string>> = {
  version: fc.oneof(versionName, nasty),
  versions: fc.oneof(versionName, nasty),
  buffermode: fc.oneof(fc.constantFrom('append', 'replace', 'rejectOnContents', 'REPLACE', 'rejectoncontents', 'merge'), nasty),
  'empty-collection': boolish,
  'cleartext-secrets': boolish,
  force: boolish,
  dryrun: boolish,
  'allow-intermediate-commits': boolish,
  try: fc.oneof(fc.constantFrom('1', '2', '0', '-1', '01', '999999', '9999999', '1.5', '1e3', '0x1', ' 1'), nasty),
  since: fc.oneof(
    fc.constantFrom('P1D', 'PT1H', 'P', 'PT', 'P1Y2M3W4DT5H6M7.5S', '2020-01-01', '2020-01-01T00:00:00', '2020-01-01T00:00:00+02:00', '9999-12-31', '+275760-09-13T00:00:00Z',
      '-271821-04-20', '0000-00-00', '2020-13-45', 'yesterday'),
    fc.tuple(fc.constantFrom('Y', 'M', 'W', 'D'), fc.bigInt({ min: 0n, max: 10n ** 30n })).map(([unit, n]) => `P${n}${unit}`),
    fc.tuple(fc.constantFrom('H', 'M', 'S'), fc.bigInt({ min: 0n, max: 10n ** 30n })).map(([unit, n]) => `PT${n}${unit}`),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    nasty
  ),
  filters: fc.oneof(fc.constantFrom('nodes-provision-status', 'machines-power-state', 'nodes-provision-status,machines-power-state', ',', 'nodes-provision-status,,x'), nasty),
  verbosity: fc.oneof(fc.constantFrom('0', '1', '5', '6', '-1', '01', '1.0'), nasty)
}
/** The query parameters each route reads (the route table knows paths, not queries); verbosity applies to all. */
const ROUTE_QUERY: Record<string, string[]> = {
  [`GET ${API}/configdocs`]: ['version', 'versions'],
  [`POST ${API}/configdocs/:collection_id`]: ['buffermode', 'empty-collection'],
  [`GET ${API}/configdocs/:collection_id`]: ['version', 'cleartext-secrets'],
  [`GET ${API}/renderedconfigdocs`]: ['version', 'cleartext-secrets'],
  [`POST ${API}/commitconfigdocs`]: ['force', 'dryrun'],
  [`POST ${API}/actions`]: ['allow-intermediate-commits'],
  [`GET ${API}/actions/:action_id/steps/:step_id/logs`]: ['try'],
  [`GET ${API}/workflows`]: ['since'],
  [`GET ${API}/site_statuses`]: ['filters']
}
const pairOf = (names: string[]): fc.Arbitrary<[string, string]> =>
  fc.constantFrom(...names).chain((name) => (QUERY_VALUES[name] ?? nasty).map((value): [string, string] => [name, value]))

function queryString (route: string): fc.Arbitrary<string> {
  const pair = fc.oneof(
    { weight: 4, arbitrary: pairOf([...ROUTE_QUERY[route] ?? [], 'verbosity']) },
    { weight: 1, arbitrary: pairOf(Object.keys(QUERY_VALUES)) },
    { weight: 1, arbitrary: fc.tuple(nasty, nasty) }
  )
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz=1', 'version=%E0%A4%A', '&&&', '=', 'a[b]=c', 'version[]=buffer', '__proto__[x]=1', '__proto__=1', 'constructor.prototype.x=1') },
    { weight: 1, arbitrary: fc.constantFrom('x', 'version', 'since', 'filters', 'try').map((name) => `${name}=${'a'.repeat(100_000)}`) }
  )
}

/** Ids the store and the database hold after setup, so that some requests reach deep into the domain. */
interface Known { actionId: string, failedActionId: string, validationId: string, noteId: string, workflowId: string }

/** Plausible and hostile values for each path parameter of the route table. */
function paramValues (known: Known): Record<string, fc.Arbitrary<string>> {
  return {
    collection_id: fc.oneof(fc.constantFrom('global', 'site', 'secrets', 'a.b', 'a..b', '-a', 'x'.repeat(128), 'x'.repeat(129)), prototypeKey, nasty),
    action_id: fc.oneof(fc.constantFrom(known.actionId, known.failedActionId), ulidish, nasty),
    validation_id: fc.oneof(fc.constant(known.validationId), ulidish, nasty),
    step_id: fc.oneof(fc.constantFrom('action_xcom', 'prepare_and_deploy_nodes', 'deckhand_validate_site_design', 'drydock_build', 'deploy_site.drydock_build'), nasty),
    control_verb: fc.oneof(fc.constantFrom('pause', 'unpause', 'stop', 'PAUSE', 'reboot'), prototypeKey, nasty),
    workflow_id: fc.oneof(
      fc.constantFrom(known.workflowId, 'deploy_site__2020-01-01T00:00:00.000000', '__2020-01-01T00:00:00', 'deploy_site__', 'deploy_site__-271821-04-20T00:00:00',
        'deploy_site__+275760-09-13T00:00:00', 'deploy_site__99999', 'a__b__c'),
      fc.tuple(nasty, fc.date({ noInvalidDate: true })).map(([dag, d]) => `${dag}__${d.toISOString().slice(0, -1)}`),
      nasty
    ),
    note_id: fc.oneof(fc.constant(known.noteId), ulidish, nasty)
  }
}

// path segments as a client would send them, plus raw traversal and broken percent-encoding
const rawSegment = fc.constantFrom('..', '.', '%2e%2e', '..%2f..%2fetc', '%2F', '%00', '%', '%zz', 'a%20b', '%E0%A4%A', '%F0%9F%92%A5')
const segmentOf = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof({ weight: 8, arbitrary: value.map(encodeURIComponent) }, { weight: 1, arbitrary: rawSegment })

interface FuzzRequest {
  route: string
  method: string
  url: string
  body: string | undefined
  type: string | undefined
  marker: string | undefined
}

function requestsFor (route: { method: string, url: string }, params: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<FuzzRequest> {
  const name = `${route.method} ${route.url}`
  const segments = route.url.split('/').map((segment) => {
    if (!segment.startsWith(':')) return fc.constant(segment)
    return segmentOf(params[segment.slice(1)] ?? nasty)
  })
  const yaml = name === `POST ${API}/configdocs/:collection_id`
  const json = name === `POST ${API}/actions`
  const body = yaml
    ? fc.oneof({ weight: 4, arbitrary: yamlBody }, { weight: 1, arbitrary: anyBody })
    : json
      ? fc.oneof({ weight: 4, arbitrary: actionBody }, { weight: 1, arbitrary: anyBody })
      : fc.option(anyBody, { freq: 3 }).map((b) => b ?? undefined)
  // mostly the type the route takes, so that bodies get past the content-type check
  const fitting = yaml ? fc.constantFrom('application/x-yaml', 'application/yaml', 'text/yaml', 'text/plain') : json ? fc.constantFrom('application/json', 'application/json; charset=utf-8') : fc.constant(undefined)
  return fc.record({
    route: fc.constant(name),
    // mostly the route's own method; sometimes another one (405) or OPTIONS
    method: fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
    url: fc.tuple(fc.tuple(...segments), fc.option(queryString(name), { freq: 2 })).map(([path, query]) => query === null ? path.join('/') : `${path.join('/')}?${query}`),
    body,
    type: fc.oneof(
      { weight: 3, arbitrary: fitting },
      { weight: 1, arbitrary: contentType },
      { weight: 1, arbitrary: fc.constant(undefined) }
    ),
    marker: fc.option(fc.oneof(fc.uuid(), fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''))), { freq: 4 }).map((m) => m ?? undefined)
  })
}

async function setUp (stack: Stack): Promise<Known> {
  const { app } = stack
  const json = { ...AUTH, 'content-type': 'application/json' }
  const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
  // before anything is committed, a site action is stored with a failed validation (409)
  const failed = (await app.inject({ method: 'POST', url: `${API}/actions`, headers: json, payload: '{"name":"deploy_site"}' })).json()
  await app.inject({ method: 'POST', url: `${API}/configdocs/global`, headers: yaml, payload: GLOBAL_YAML })
  await app.inject({ method: 'POST', url: `${API}/configdocs/site?buffermode=append`, headers: yaml, payload: SITE_YAML })
  expect((await app.inject({ method: 'POST', url: `${API}/commitconfigdocs`, headers: AUTH })).statusCode).toBe(200)
  const created = await app.inject({ method: 'POST', url: `${API}/actions`, headers: json, payload: '{"name":"deploy_site"}' })
  expect(created.statusCode).toBe(201)
  const actionId = String(created.json().id)
  const deadline = Date.now() + 15_000
  let action = (await app.inject({ url: `${API}/actions/${actionId}`, headers: AUTH })).json()
  while (!['Complete', 'Failed'].includes(action.action_lifecycle) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    action = (await app.inject({ url: `${API}/actions/${actionId}`, headers: AUTH })).json()
  }
  expect(action.action_lifecycle).toBe('Complete')
  const workflows = (await app.inject({ url: `${API}/workflows`, headers: AUTH })).json()
  return {
    actionId,
    failedActionId: String(failed.id),
    validationId: String(failed.validations[0].id),
    noteId: String(action.notes[0].note_id),
    workflowId: String(workflows[0].workflow_id)
  }
}

describe('fuzzing the orchestrator', () => {
  it(`answers ${RUNS} generated bad requests on every route with 4xx error bodies, never 5xx`, async () => {
    const stack = await buildTestStack()
    const known = await setUp(stack)
    const routes = stack.app.routeTable()
    const params = paramValues(known)
    const request = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...routes).chain((route) => requestsFor(route, params)) },
      // paths that are no route at all
      { weight: 1, arbitrary: requestsFor({ method: 'GET', url: `${API}/:x/:y` }, {}).map((r) => ({ ...r, route: 'unrouted' })) }
    )
    const hits = new Map<string, number>()
    const started = Date.now()
    let answered = 0
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const headers: Record<string, string> = { ...AUTH }
      if (r.type !== undefined && r.type !== '') headers['content-type'] = r.type
      if (r.marker !== undefined) headers['x-context-marker'] = r.marker
      const res = await stack.app.inject({ method: r.method as 'GET', url: r.url, headers, payload: r.body })
      answered++
      hits.set(r.route, (hits.get(r.route) ?? 0) + 1)
      const what = `${r.method} ${r.url.slice(0, 300)} (${r.type ?? 'no type'}, ${String(r.body?.length ?? 0)} bytes): ${res.statusCode} ${res.body.slice(0, 500)}`
      expect(res.statusCode, what).toBeLessThan(500)
      if (res.statusCode < 400) return
      const body = res.json()
      // a failed pre-run validation answers 409 with the stored action and its validations
      if (res.statusCode === 409 && r.method === 'POST' && r.url.split('?')[0] === `${API}/actions` && body.action_lifecycle === 'Failed') {
        expect(body, what).toMatchObject({ message: 'Unable to start action', dag_status: null, validations: [{ action_id: body.id }] })
        expect(typeof body.details?.errorCount, what).toBe('number')
        return
      }
      expect(isErrorBody(body), what).toBe(true)
    }), { numRuns: RUNS })
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    console.log(`orchestrator fuzz: ${answered} requests, 0 answers in the 5xx range (${routes.length} routes, ${seconds} s)`)
    for (const route of routes) expect(hits.get(`${route.method} ${route.url}`) ?? 0, `${route.method} ${route.url} was fuzzed`).toBeGreaterThan(0)
  }, 300_000)

  it('keeps answering the inputs the fuzzer first broke it with', async () => {
    const { app } = await buildTestStack()
    const json = { ...AUTH, 'content-type': 'application/json' }
    const yaml = { ...AUTH, 'content-type': 'application/x-yaml' }
    const inject = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = AUTH, payload?: string) =>
      await app.inject({ method, url: `${API}${url}`, headers, payload })
    // dates beyond the engine's years 1–9999: clamped in since, refused in a workflow id
    expect((await inject('GET', '/workflows?since=P300000Y')).statusCode).toBe(200)
    expect((await inject('GET', '/workflows?since=0000-01-01T00:00:00')).statusCode).toBe(200)
    expect((await inject('GET', '/workflows?since=%2B275760-09-13T00:00:00Z')).statusCode).toBe(200)
    expect((await inject('GET', '/workflows/deploy_site__0000-01-01T00:00:00.999')).json()).toMatchObject({ message: 'Invalid Workflow ID specified' })
    // names every object has are no action and no collection
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect((await inject('POST', '/actions', json, JSON.stringify({ name }))).json(), name).toMatchObject({ code: '400 Bad Request', message: 'Unable to start action' })
    }
    // prototype poisoning in an action body is refused as Fastify's own JSON parser refuses it
    for (const parameters of ['{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']) {
      const res = await inject('POST', '/actions', json, `{"name":"test_site","parameters":${parameters}}`)
      expect(res.json(), parameters).toMatchObject({ code: '400 Bad Request', message: 'JSON could not be decoded' })
    }
    expect((await inject('POST', '/configdocs/global', yaml, GLOBAL_YAML)).statusCode).toBe(201)
    expect((await inject('GET', '/configdocs/constructor?version=buffer')).statusCode).toBe(404)
    const passphrase = document('deckhand/Passphrase/v1', 'extra', 'hello')
    const appended = await inject('POST', '/configdocs/constructor?buffermode=append', yaml, passphrase)
    expect(appended.statusCode, appended.body).toBe(201)
    expect((await inject('GET', '/configdocs/constructor?version=buffer')).body).toContain('extra')
  })
})
