// The console's logic for changing the site, without a browser: the actions it offers and the requests and
// confirmations made of its form, staging and committing in words, the validation answers, and which rule a refused
// create lacked.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ACTION_KINDS, createConfirmation, createPath, kindOf, parameterLines, parametersOf, problemOf } from '../../console/action-kinds.js'
import { ApiError, api, blamed, probeOf, rulesOf } from '../../console/api.js'
import {
  bufferRevisionOf, bufferSignature, collectionOfFile, collectionProblem, commitConfirmation, commitPath, forceConfirmation, modeEffect,
  nameForFile, renderedDefault, stageConfirmation, stagePath, stagedOf
} from '../../console/staging.js'
import { failuresOf, findingText, messagesOf, verdictText } from '../../console/validations.js'
import { ACTIONS } from '../../src/domain/catalog.ts'

const values = (over = {}) => ({ targets: [], continueOnFail: false, release: '', ...over })

describe('the actions offered', () => {
  it('are the orchestrator\'s own, each with the parameters and checks its catalog gives it', () => {
    expect(ACTION_KINDS.map((k) => k.name).sort()).toEqual(Object.keys(ACTIONS).sort())
    for (const kind of ACTION_KINDS) {
      const own = ACTIONS[kind.name]
      expect(kind.targets === true, kind.name).toBe(own.validators.includes('target-nodes'))
      expect(kind.intermediate === true, kind.name).toBe(own.validators.includes('intermediate-commits'))
      expect(kind.site === true, kind.name).toBe(own.siteAction)
      // continue-on-fail matters where the deployment configuration is checked
      expect(kind.continueOnFail === true, kind.name).toBe(own.validators.some((v) => v.startsWith('deployment-')))
    }
  })

  it('sends target_nodes as a list of the nodes picked, continue-on-fail as \'true\' when asked, a release only when named', () => {
    expect(parametersOf(kindOf('relabel_nodes'), values({ targets: ['n1', 'n3'] }))).toEqual({ target_nodes: ['n1', 'n3'] })
    expect(parametersOf(kindOf('redeploy_server'), values({ targets: ['n2'], continueOnFail: true }))).toEqual({ target_nodes: ['n2'], 'continue-on-fail': 'true' })
    expect(parametersOf(kindOf('deploy_site'), values({ targets: ['n1'], release: 'x' }))).toEqual({})
    expect(parametersOf(kindOf('test_site'), values({ release: '  ingress ' }))).toEqual({ release: 'ingress' })
    expect(parametersOf(kindOf('test_site'), values({ release: '   ', continueOnFail: true }))).toEqual({})
  })

  it('asks for a node before a targeted action goes, and for allow-intermediate-commits only where it applies', () => {
    expect(problemOf(kindOf('relabel_nodes'), values())).toBe('Choose at least one node: relabel_nodes acts on the nodes you choose.')
    expect(problemOf(kindOf('relabel_nodes'), values({ targets: ['n0'] }))).toBe(null)
    expect(problemOf(kindOf('deploy_site'), values())).toBe(null)
    expect(createPath(kindOf('update_site'), true)).toBe('/actions?allow-intermediate-commits=true')
    expect(createPath(kindOf('update_site'), false)).toBe('/actions')
    expect(createPath(kindOf('test_site'), true)).toBe('/actions')
  })

  it('confirms a create with what will happen and what is sent', () => {
    const relabel = createConfirmation(kindOf('relabel_nodes'), { target_nodes: ['n1', 'n3'] }, true)
    expect(relabel.title).toBe('Create relabel_nodes?')
    expect(relabel.text).toBe('Sets the Kubernetes labels of the chosen nodes to those of the committed documents. Nodes: n1, n3. The orchestrator first checks ' +
      'the committed documents and that no other site action runs; if a check fails, nothing starts and you see why.')
    expect(relabel.items).toEqual(['target_nodes: n1, n3'])
    expect(relabel.danger).toBe(false)
    const deploy = createConfirmation(kindOf('deploy_site'), { 'continue-on-fail': 'true' }, true)
    expect(deploy.items).toEqual(['continue-on-fail: true', 'allow-intermediate-commits: true'])
    expect(deploy.text).toContain('(commits no site action has used are allowed)')
    expect(createConfirmation(kindOf('deploy_site'), {}, false).items).toEqual(['No parameters.'])
    expect(createConfirmation(kindOf('redeploy_server'), { target_nodes: ['n2'] }, false).danger).toBe(true)
    expect(createConfirmation(kindOf('test_site'), {}, false).text).toMatch(/nothing on the site changes\. The engine starts the test_site workflow at once\.$/)
  })

  it('words an action\'s parameters a line each, as the caller sent them', () => {
    expect(parameterLines({ target_nodes: ['n1', 'n2'], 'continue-on-fail': 'true', depth: 2, extra: { a: 1 } }))
      .toEqual(['target_nodes: n1, n2', 'continue-on-fail: true', 'depth: 2', 'extra: {"a":1}'])
    expect(parameterLines({ target_nodes: 'n1,n2' })).toEqual(['target_nodes: n1,n2'])
    expect(parameterLines(undefined)).toEqual([])
  })
})

const row = (name, base, status, revision = 3) => ({ collection_name: name, base_status: base, new_status: status, new_revision: revision })

describe('staging and committing', () => {
  it('takes collection names the orchestrator takes, and a file\'s name as one', () => {
    expect(collectionProblem('site')).toBe(null)
    expect(collectionProblem('')).toBe('Name the collection.')
    expect(collectionProblem('a..b')).toMatch(/^A collection name is 1 to 128/)
    expect(collectionProblem('-x')).not.toBe(null)
    expect(collectionProblem('x'.repeat(129))).not.toBe(null)
    expect(collectionOfFile('site.yaml')).toBe('site')
    expect(collectionOfFile('global.YML')).toBe('global')
    expect(collectionOfFile('my site.yaml')).toBe('')
  })

  it('names the collection after a file read, unless the operator typed the name shown since the last staging', () => {
    // a name left from the first file gives way to the second's: staged with replace it would overwrite the first
    expect(nameForFile({ current: 'global', typed: false, fileName: 'site.yaml' })).toBe('site')
    expect(nameForFile({ current: 'global', typed: false, fileName: 'my site.yaml' })).toBe('')
    expect(nameForFile({ current: 'mine', typed: true, fileName: 'site.yaml' })).toBe('mine')
    expect(nameForFile({ current: ' ', typed: true, fileName: 'site.yaml' })).toBe('site')
  })

  it('reads the buffer from committed against buffer, and tells one buffer from another', () => {
    const list = [row('global', 'present', 'unmodified'), row('site', 'present', 'deleted'), row('extra', 'not present', 'created')]
    expect(stagedOf(list)).toEqual([{ name: 'site', status: 'deleted' }, { name: 'extra', status: 'created' }])
    expect(bufferSignature(list)).toBe('3:site=deleted,extra=created')
    expect(bufferSignature([row('global', 'present', 'unmodified')])).toBe('')
    expect(bufferSignature(list)).not.toBe(bufferSignature(list.map((c) => ({ ...c, new_revision: 4 }))))
    // the rendered documents default to the buffer only while it changes something (after a commit it has none)
    expect(renderedDefault(list)).toBe('buffer')
    expect(renderedDefault([row('global', 'present', 'unmodified')])).toBe('committed')
    expect(renderedDefault([])).toBe('committed')
  })

  it('makes the staging request: its mode, and empty-collection when staged empty', () => {
    expect(stagePath('site', 'append', false)).toBe('/configdocs/site?buffermode=append')
    expect(stagePath('site', 'rejectOnContents', true)).toBe('/configdocs/site?buffermode=rejectOnContents&empty-collection=true')
  })

  it('says what a buffer mode does with the buffer as it is', () => {
    const staged = [{ name: 'global', status: 'created' }]
    expect(modeEffect('rejectOnContents', 'site', [])).toBe('The buffer is empty now.')
    expect(modeEffect('rejectOnContents', 'site', staged)).toBe('The buffer holds global (created), so rejectOnContents is refused; append stages beside it, replace instead of it.')
    expect(modeEffect('append', 'site', staged)).toBe('It is added beside what is staged now: global (created).')
    expect(modeEffect('append', 'global', staged)).toBe('global is staged already, so append is refused; replace empties the buffer first.')
    expect(modeEffect('replace', 'site', staged)).toBe('The buffer is emptied first: what is staged now, global (created), is dropped.')
  })

  it('confirms a staging with what is sent and what happens at commit', () => {
    const docs = stageConfirmation({ collection: 'site', mode: 'append', empty: false, documents: 24, bytes: 9000, staged: [], committed: true })
    expect(docs).toEqual({
      title: 'Stage site?',
      text: '24 documents (8.8 KiB) are staged as the collection site; the store checks them now. The buffer is empty now. Nothing changes on the site until the buffer is committed.',
      items: ['buffermode: append'],
      confirmLabel: 'Stage',
      danger: false
    })
    const emptied = stageConfirmation({ collection: 'site', mode: 'rejectOnContents', empty: true, documents: 0, bytes: 0, staged: [], committed: true })
    expect(emptied.title).toBe('Stage site empty?')
    expect(emptied.text).toMatch(/^site is staged empty: at the next commit the collection is deleted, with every document it holds\. /)
    expect(emptied.items).toEqual(['buffermode: rejectOnContents', 'empty-collection: true'])
    expect(emptied.danger).toBe(true)
    expect(stageConfirmation({ collection: 'new', mode: 'append', empty: true, documents: 0, bytes: 0, staged: [], committed: false }).text)
      .toMatch(/deleted \(it is not in the committed version\)\./)
    expect(stageConfirmation({ collection: 'one', mode: 'append', empty: false, documents: 1, bytes: 10, staged: [], committed: false }).text)
      .toMatch(/^1 document \(10 bytes\) are staged/)
  })

  it('names the buffer revision it examined in the dry run and in the commit, with force only past failures', () => {
    const list = [row('global', 'present', 'deleted', 7), row('site', 'present', 'unmodified', 7)]
    expect(bufferRevisionOf(list)).toBe(7)
    expect(bufferRevisionOf([row('site', 'present', 'unmodified', 7)])).toBe(null)
    expect(bufferRevisionOf([])).toBe(null)
    expect(commitPath({ revision: 7, dryrun: true })).toBe('/commitconfigdocs?dryrun=true&buffer-revision=7')
    expect(commitPath({ revision: 7, force: true })).toBe('/commitconfigdocs?force=true&buffer-revision=7')
    expect(commitPath({ revision: 7 })).toBe('/commitconfigdocs?buffer-revision=7')
  })

  it('confirms a commit with its changes, and a force with each failure it goes past', () => {
    const staged = [{ name: 'global', status: 'deleted' }, { name: 'site', status: 'modified' }]
    const plain = commitConfirmation(staged, [])
    expect(plain).toEqual({
      title: 'Commit the buffer?',
      text: 'The buffer becomes the committed version and is emptied; the next site action runs on it.',
      items: ['global: deleted, its documents go', 'site: modified'],
      confirmLabel: 'Commit',
      danger: false
    })
    const failures = [{ name: 'Docker count', error: true, message: 'There are 0 Docker documents.' }, { name: null, error: true, message: 'Broken.' }]
    expect(commitConfirmation(staged, failures).title).toBe('Commit the buffer despite failed validations?')
    expect(commitConfirmation(staged, failures).text).toMatch(/The dry run found 2 failed validations: the next question names them\.$/)
    expect(forceConfirmation(failures)).toEqual({
      title: 'Force the commit past 2 failed validations?',
      text: 'With force the documents are committed although these validations failed, and site actions would run on them:',
      items: ['Docker count: There are 0 Docker documents.', 'Broken.'],
      confirmLabel: 'Force the commit',
      danger: true
    })
  })
})

describe('validation answers', () => {
  const body = (messageList) => ({ kind: 'Status', status: 'Failure', reason: 'Validation', details: { errorCount: 0, messageList } })

  it('reads the findings of a validation body and words its verdict', () => {
    const answer = body([{ name: 'Deckhand', error: true, message: 'Bad.' }, { name: '', error: false, message: 'Note.' }, { name: 'x', error: true, message: '' }])
    expect(messagesOf(answer)).toEqual([{ name: 'Deckhand', error: true, message: 'Bad.' }, { name: null, error: false, message: 'Note.' }])
    expect(failuresOf(answer)).toEqual([{ name: 'Deckhand', error: true, message: 'Bad.' }])
    expect(verdictText(answer)).toBe('1 validation failed (2 findings in all)')
    expect(verdictText(body([]))).toBe('Validations succeeded')
    expect(verdictText(body([{ name: null, error: false, message: 'DeploymentStrategyNotSpecified' }]))).toBe('Validations succeeded, 1 note')
    expect(verdictText(body([{ name: 'a', error: true, message: 'x' }, { name: 'b', error: true, message: 'y' }]))).toBe('2 validations failed')
    expect(messagesOf(null)).toEqual([])
    expect(findingText({ name: 'Deckhand', message: 'Bad.' })).toBe('Deckhand: Bad.')
  })

  it('lists a refusal\'s own entries once each, without what its line says already', () => {
    const error = new ApiError(409, 'Invalid collection specified for buffer', 'Buffermode : rejectOnContents', [], {
      details: { errorList: [{ message: 'Buffermode : rejectOnContents' }, { message: 'Try append.' }, { message: 'Try append.' }], messageList: [{ name: 'n', error: false, message: 'Info.' }] }
    })
    expect(error.entries()).toEqual([{ name: null, error: true, message: 'Try append.' }, { name: 'n', error: false, message: 'Info.' }])
    expect(new ApiError(500, 'x', 'y').entries()).toEqual([])
  })
})

describe('refused creates, stagings and commits', () => {
  afterEach(() => { vi.unstubAllGlobals() })

  it('names the rules of the calls that change the site, an action\'s own as well', () => {
    expect(rulesOf('POST', '/actions', 'deploy_site')).toEqual(['workflow_orchestrator:create_action', 'workflow_orchestrator:action_deploy_site'])
    expect(rulesOf('POST', '/actions?allow-intermediate-commits=true', 'update_site')).toEqual(['workflow_orchestrator:create_action', 'workflow_orchestrator:action_update_site'])
    expect(rulesOf('POST', '/actions')).toEqual(['workflow_orchestrator:create_action'])
    expect(rulesOf('POST', '/configdocs/site?buffermode=append&empty-collection=true')).toEqual(['workflow_orchestrator:create_configdocs'])
    expect(rulesOf('POST', '/commitconfigdocs?dryrun=true')).toEqual(['workflow_orchestrator:commit_configdocs'])
  })

  it('tells which of two rules refused by a call that needs only the first and changes nothing', () => {
    expect(probeOf('POST', '/actions?allow-intermediate-commits=true')).toEqual({ method: 'POST', path: '/actions', body: '{}', type: 'application/json' })
    expect(probeOf('GET', '/configdocs/site?version=buffer&cleartext-secrets=true')).toEqual({ method: 'GET', path: '/configdocs/site?version=buffer&cleartext-secrets=false' })
    expect(probeOf('POST', '/commitconfigdocs')).toBe(undefined)
    const rules = ['first', 'second']
    expect(blamed(403, rules)).toEqual(['first'])
    expect(blamed(400, rules)).toEqual(['second'])
    expect(blamed(200, rules)).toEqual(['second'])
    expect(blamed(503, rules)).toEqual(rules)
  })

  it('asks the orchestrator which rule refused a create: a nameless body it refuses as invalid means create_action passed', async () => {
    const sent = []
    let probeStatus = 400
    vi.stubGlobal('sessionStorage', { getItem: () => 'token', setItem: () => {}, removeItem: () => {} })
    vi.stubGlobal('fetch', async (url, init) => {
      sent.push({ url, method: init.method, body: init.body, type: init.headers['Content-Type'], token: init.headers['X-Auth-Token'] })
      const status = init.body === '{}' ? probeStatus : 403
      return new Response(JSON.stringify({ message: 'Forbidden', reason: 'Credentials do not permit access' }), { status })
    })
    const create = async () => await api.send('/actions', { body: JSON.stringify({ name: 'update_software', parameters: {} }), type: 'application/json', actionName: 'update_software' })
      .then(() => undefined, (error) => error)
    const refused = await create()
    expect(refused.describe()).toBe('Forbidden: your token lacks the permission workflow_orchestrator:action_update_software.')
    expect(sent).toEqual([
      { url: '/api/v1.0/actions', method: 'POST', body: '{"name":"update_software","parameters":{}}', type: 'application/json', token: 'token' },
      { url: '/api/v1.0/actions', method: 'POST', body: '{}', type: 'application/json', token: 'token' }
    ])
    probeStatus = 403
    expect((await create()).describe()).toBe('Forbidden: your token lacks the permission workflow_orchestrator:create_action.')
  })
})
