// The optional deployment-version checks (at staging, at commit and in site actions' pre-run validation): a
// pegleg/DeploymentData/v1 document named deployment-version, missing → by severity.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { buildTestStack, GLOBAL_YAML, SITE_YAML } from '../helpers/stack.ts'

const YAML = { ...AUTH, 'content-type': 'application/x-yaml' }
const VERSION_DOCUMENT = `---
schema: pegleg/DeploymentData/v1
metadata:
  schema: metadata/Document/v1
  name: deployment-version
  layeringDefinition:
    abstract: false
    layer: global
  storagePolicy: cleartext
data:
  documents:
    site-type: example
    version: v1.0.0
`

type Stack = Awaited<ReturnType<typeof buildTestStack>>
const stage = async (stack: Stack, collection: string, body: string, query = '') =>
  await stack.app.inject({ method: 'POST', url: `/api/v1.0/configdocs/${collection}${query}`, headers: YAML, payload: body })

describe('the deployment-version document at POST /configdocs/{collection_id}', () => {
  it('Error: refuses a collection without it with 400, leaving the buffer as it was', async () => {
    const stack = await buildTestStack({ deploymentVersion: { create: 'Error', commit: 'Skip' } })
    const res = await stage(stack, 'global', GLOBAL_YAML)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'Deployment version document missing from collection', code: '400 Bad Request', status: 'Failure' })
    expect((await stack.app.inject({ url: '/api/v1.0/configdocs', headers: AUTH })).json()).toEqual([])
    expect((await stage(stack, 'global', GLOBAL_YAML + VERSION_DOCUMENT)).statusCode).toBe(201)
    // emptying a collection needs no document
    expect((await stage(stack, 'site', '', '?buffermode=append&empty-collection=true')).statusCode).not.toBe(400)
  })

  it('Warning and Info: accept it with 201 and say so in the body', async () => {
    for (const severity of ['Warning', 'Info'] as const) {
      const stack = await buildTestStack({ deploymentVersion: { create: severity, commit: 'Skip' } })
      const res = await stage(stack, 'global', GLOBAL_YAML)
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({ status: 'Success', details: { errorCount: 0 } })
      expect(res.json().details.messageList).toContainEqual(expect.objectContaining({
        code: '200 OK', message: 'Deployment version document missing from collection', status: severity, level: severity.toLowerCase(), error: false
      }))
    }
  })

  it('Skip (the default): says nothing', async () => {
    const stack = await buildTestStack()
    const res = await stage(stack, 'global', GLOBAL_YAML)
    expect(res.statusCode).toBe(201)
    expect(res.json().details.messageList).toEqual([])
  })
})

describe('the deployment-version document at commit and in deploy_site\'s pre-run validation', () => {
  it('Error: a commit without it fails naming the document; forced through, deploy_site is refused with 409', async () => {
    const stack = await buildTestStack({ deploymentVersion: { create: 'Skip', commit: 'Error' } })
    expect((await stage(stack, 'global', GLOBAL_YAML)).statusCode).toBe(201)
    expect((await stage(stack, 'site', SITE_YAML, '?buffermode=append')).statusCode).toBe(201)
    stack.validatorMode.current = 'fail'
    const commit = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
    expect(commit.statusCode).toBe(400)
    expect(commit.json().details.messageList).toContainEqual(expect.objectContaining({
      name: 'DocumentNotFoundError', error: true, level: 'Error', documents: [{ schema: 'pegleg/DeploymentData/v1', name: 'deployment-version' }]
    }))
    // both Shipyard's own check and the component's answer are in the aggregate
    expect(commit.json().details.messageList).toContainEqual(expect.objectContaining({ source: 'Promenade', error: true }))
    expect(commit.json().details.errorCount).toBe(2)
    stack.validatorMode.current = 'pass'
    expect(stack.validator.calls).toHaveLength(1) // the components are asked alongside Shipyard's own checks
    expect((await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs?force=true', headers: AUTH })).statusCode).toBe(200)
    const action = await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name": "deploy_site"}' })
    expect(action.statusCode).toBe(409)
    expect(action.json()).toMatchObject({ message: 'Unable to start action', reason: 'Document validation failed' })
  })

  it('Warning: the commit succeeds with the warning among its messages, and deploy_site starts', async () => {
    const stack = await buildTestStack({ deploymentVersion: { create: 'Skip', commit: 'Warning' } })
    expect((await stage(stack, 'global', GLOBAL_YAML)).statusCode).toBe(201)
    expect((await stage(stack, 'site', SITE_YAML, '?buffermode=append')).statusCode).toBe(201)
    const commit = await stack.app.inject({ method: 'POST', url: '/api/v1.0/commitconfigdocs', headers: AUTH })
    expect(commit.statusCode).toBe(200)
    expect(commit.json().details.messageList).toContainEqual(expect.objectContaining({ name: 'DocumentNotFoundError', error: false, level: 'Warning' }))
    const action = await stack.app.inject({ method: 'POST', url: '/api/v1.0/actions', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name": "deploy_site"}' })
    expect(action.statusCode).toBe(201)
  })
})
