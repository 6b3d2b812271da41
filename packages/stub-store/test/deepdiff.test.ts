// GET /revisions/{a}/deepdiff/{b}: bucket statuses of the rendered documents and, for each
// modified bucket, the documents added, deleted and changed in Python deepdiff's vocabulary.
import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bodyOf, buildTestApp, doc, expectError, get, layeringPolicy, policyFile, put, type DocSpec } from './helpers/app.ts'

const KIND = 'example/Kind/v1'
const key = (name: string): string => `('${KIND}', '${name}')`

/** A store whose revision 1 holds only the LayeringPolicy, in bucket `policy`. */
async function withPolicy (env: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<FastifyInstance> {
  const app = await buildTestApp(env)
  const res = await put(app, 'policy', layeringPolicy(['global', 'site']), headers)
  if (res.statusCode !== 200) throw new Error(res.body)
  return app
}

async function putDocs (app: FastifyInstance, bucket: string, docs: DocSpec[]): Promise<void> {
  const res = await put(app, bucket, docs.map(doc).join(''))
  if (res.statusCode !== 200) throw new Error(res.body)
}

const deepdiff = async (app: FastifyInstance, a: number | string, b: number | string) => await get(app, `/revisions/${a}/deepdiff/${b}`)

async function answer (app: FastifyInstance, a: number | string, b: number | string): Promise<unknown> {
  const res = await deepdiff(app, a, b)
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toBe('application/x-yaml')
  return bodyOf(res)
}

describe('GET /revisions/{a}/deepdiff/{b}', () => {
  it('reports a changed value with its old and new value, and the documents added to and deleted from the bucket', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 1, keep: 'x' } }, { name: 'b', layer: 'site' }]) // 2
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 2, keep: 'x' } }, { name: 'c', layer: 'site' }]) // 3
    expect(await answer(app, 2, 3)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_added: { count: 1, details: [[KIND, 'c']] },
        document_changed: {
          count: 1,
          details: { [key('a')]: { data_changed: { values_changed: { "root['v']": { new_value: 2, old_value: 1 } } }, metadata_changed: {} } }
        },
        document_deleted: { count: 1, details: [[KIND, 'b']] }
      }
    })
    // the second id is the side compared to: the other way round, additions and deletions swap
    expect(await answer(app, 3, 2)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_added: { count: 1, details: [[KIND, 'b']] },
        document_changed: {
          count: 1,
          details: { [key('a')]: { data_changed: { values_changed: { "root['v']": { new_value: 1, old_value: 2 } } }, metadata_changed: {} } }
        },
        document_deleted: { count: 1, details: [[KIND, 'c']] }
      }
    })
  })

  it('answers YAML with every mapping in sorted order', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 1 } }, { name: 'b', layer: 'site' }]) // 2
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 2 } }, { name: 'd', layer: 'site' }, { name: 'c', layer: 'site' }]) // 3
    expect((await deepdiff(app, 2, 3)).body).toBe(`policy: unmodified
site: modified
site diff:
  document_added:
    count: 2
    details:
    - - ${KIND}
      - c
    - - ${KIND}
      - d
  document_changed:
    count: 1
    details:
      '${key('a').replace(/'/g, "''")}':
        data_changed:
          values_changed:
            'root[''v'']':
              new_value: 2
              old_value: 1
        metadata_changed: {}
  document_deleted:
    count: 1
    details:
    - - ${KIND}
      - b
`)
  })

  it('reports only the keys with a non-zero count', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site' }]) // 2
    await putDocs(app, 'site', [{ name: 'a', layer: 'site' }, { name: 'b', layer: 'site' }]) // 3
    expect(await answer(app, 2, 3)).toEqual({ policy: 'unmodified', site: 'modified', 'site diff': { document_added: { count: 1, details: [[KIND, 'b']] } } })
    expect(await answer(app, 3, 2)).toEqual({ policy: 'unmodified', site: 'modified', 'site diff': { document_deleted: { count: 1, details: [[KIND, 'b']] } } })
  })

  it('reports a metadata change beside unchanged data', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 1 } }]) // 2
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', labels: { app: 'web' }, data: { v: 1 } }]) // 3
    expect(await answer(app, 2, 3)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_changed: { count: 1, details: { [key('a')]: { data_changed: {}, metadata_changed: { dictionary_item_added: ["root['labels']"] } } } }
      }
    })
  })

  it('reports a value of another Python type as a type change, int to float and bool to int included', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { n: 1, flag: true, f: 1, gone: null } }]) // 2
    await put(app, 'site', `schema: ${KIND}\nmetadata: {schema: metadata/Document/v1, name: a, storagePolicy: cleartext, layeringDefinition: {layer: site}}\ndata: {n: '1', flag: 1, f: 1.0, gone: {}}\n`) // 3
    expect(await answer(app, 2, 3)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_changed: {
          count: 1,
          details: {
            [key('a')]: {
              data_changed: {
                type_changes: {
                  "root['f']": { old_type: 'int', new_type: 'float', old_value: 1, new_value: 1 },
                  "root['flag']": { old_type: 'bool', new_type: 'int', old_value: true, new_value: 1 },
                  "root['gone']": { old_type: 'NoneType', new_type: 'dict', old_value: null, new_value: {} },
                  "root['n']": { old_type: 'int', new_type: 'str', old_value: 1, new_value: '1' }
                }
              },
              metadata_changed: {}
            }
          }
        }
      }
    })
    // the float keeps its type in the answer
    expect((await deepdiff(app, 2, 3)).body).toContain('              new_value: 1.0\n')
  })

  it('pairs list items by index and reports the surplus as added or removed', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [
      { name: 'grow', layer: 'site', data: { list: [1, 2] } },
      { name: 'shrink', layer: 'site', data: { list: ['a', 'b', 'c', { d: 1 }], nested: { x: 1, y: 2 } } }
    ]) // 2
    await putDocs(app, 'site', [
      { name: 'grow', layer: 'site', data: { list: [1, 2, 3, { x: [1] }] } },
      { name: 'shrink', layer: 'site', data: { list: ['a', 'B'], nested: { x: 1 } } }
    ]) // 3
    expect(await answer(app, 2, 3)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_changed: {
          count: 2,
          details: {
            [key('grow')]: {
              data_changed: { iterable_item_added: { "root['list'][2]": 3, "root['list'][3]": { x: [1] } } },
              metadata_changed: {}
            },
            [key('shrink')]: {
              data_changed: {
                dictionary_item_removed: ["root['nested']['y']"],
                iterable_item_removed: { "root['list'][2]": 'c', "root['list'][3]": { d: 1 } },
                values_changed: { "root['list'][1]": { new_value: 'B', old_value: 'b' } }
              },
              metadata_changed: {}
            }
          }
        }
      }
    })
  })

  it('compares rendered data: a child shows what it took from its parent', async () => {
    const app = await withPolicy()
    const parent = (shared: number): DocSpec => ({ name: 'parent', layer: 'global', labels: { role: 'p' }, data: { shared } })
    const child = (own: number): DocSpec => ({ name: 'child', layer: 'site', parentSelector: { role: 'p' }, actions: [{ method: 'merge', path: '.' }], data: { own } })
    await putDocs(app, 'site', [parent(1), child(1)]) // 2
    await putDocs(app, 'site', [parent(2), child(2)]) // 3
    expect(await answer(app, 2, 3)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_changed: {
          count: 2,
          details: {
            [key('child')]: {
              data_changed: { values_changed: { "root['own']": { new_value: 2, old_value: 1 }, "root['shared']": { new_value: 2, old_value: 1 } } },
              metadata_changed: {}
            },
            [key('parent')]: { data_changed: { values_changed: { "root['shared']": { new_value: 2, old_value: 1 } } }, metadata_changed: {} }
          }
        }
      }
    })
  })

  it('judges a document changed by its stored hashes: a child whose own copy is unchanged stays unmodified', async () => {
    const app = await withPolicy()
    await putDocs(app, 'parents', [{ name: 'parent', layer: 'global', labels: { role: 'p' }, data: { shared: 1 } }]) // 2
    await putDocs(app, 'site', [{ name: 'child', layer: 'site', parentSelector: { role: 'p' }, actions: [{ method: 'merge', path: '.' }] }]) // 3
    await putDocs(app, 'parents', [{ name: 'parent', layer: 'global', labels: { role: 'p' }, data: { shared: 2 } }]) // 4
    expect(await answer(app, 3, 4)).toEqual({
      parents: 'modified',
      'parents diff': {
        document_changed: { count: 1, details: { [key('parent')]: { data_changed: { values_changed: { "root['shared']": { new_value: 2, old_value: 1 } } }, metadata_changed: {} } } }
      },
      policy: 'unmodified',
      site: 'unmodified'
    })
  })

  it('leaves out abstract and ValidationPolicy documents, so a bucket holding only those does not exist', async () => {
    const app = await withPolicy()
    await put(app, 'hidden', doc({ name: 'base', layer: 'global', abstract: true }) +
      '---\nschema: deckhand/ValidationPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: vp}\ndata: {validations: []}\n') // 2
    await putDocs(app, 'site', [{ name: 'a', layer: 'site' }]) // 3
    expect(await answer(app, 0, 3)).toEqual({ policy: 'created', site: 'created' })
    // the plain diff sees the stored documents
    expect(bodyOf(await get(app, '/revisions/0/diff/3'))).toEqual({ hidden: 'created', policy: 'created', site: 'created' })
  })

  it('counts the fallback LayeringPolicy a revision is rendered with in its bucket, as the rendered view shows it', async () => {
    const app = await withPolicy()
    await put(app, 'policy', '') // 2
    await putDocs(app, 'site', [{ name: 'a', layer: 'site' }]) // 3
    expect(await answer(app, 1, 3)).toEqual({ policy: 'unmodified', site: 'created' })
    expect(bodyOf(await get(app, '/revisions/1/diff/3'))).toEqual({ policy: 'deleted', site: 'created' })
  })

  it('reports every bucket created against revision 0, on either side, without diff keys', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 1 } }]) // 2
    expect(await answer(app, 0, 2)).toEqual({ policy: 'created', site: 'created' })
    expect(await answer(app, 2, 0)).toEqual({ policy: 'created', site: 'created' })
  })

  it('answers {} for 0 against 0, without rendering anything', async () => {
    const app = await buildTestApp()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site' }]) // no LayeringPolicy anywhere
    expect(await answer(app, 0, 0)).toEqual({})
  })

  it('reports every bucket unmodified for a revision against itself', async () => {
    const app = await withPolicy()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site', data: { v: 1 } }]) // 2
    expect(await answer(app, 2, 2)).toEqual({ policy: 'unmodified', site: 'unmodified' })
  })

  it('reports buckets created and deleted between two revisions as seen from the newer one, whatever the order', async () => {
    const app = await withPolicy()
    await putDocs(app, 'old', [{ name: 'a', layer: 'site' }]) // 2
    await putDocs(app, 'new', [{ name: 'b', layer: 'site' }]) // 3
    await put(app, 'old', '') // 4
    expect(await answer(app, 2, 4)).toEqual({ new: 'created', old: 'deleted', policy: 'unmodified' })
    expect(await answer(app, 4, 2)).toEqual({ new: 'created', old: 'deleted', policy: 'unmodified' })
  })

  it('answers 400 InvalidInputException for a non-integer id', async () => {
    const app = await withPolicy()
    for (const [a, b] of [['x', '1'], ['1', '-1'], ['1.0', '1']]) {
      const res = await deepdiff(app, a as string, b as string)
      const bad = /^\d+$/.test(a as string) ? b : a
      expectError(res, 400, 'InvalidInputException')
      expect(bodyOf(res)).toEqual({
        kind: 'Status',
        apiVersion: 'v1.0',
        metadata: {},
        status: 'Failure',
        message: `Failed to process request due to invalid input: ${String(bad)}`,
        reason: 'Unspecified',
        code: '400 Bad Request',
        retry: false,
        details: { errorType: 'InvalidInputException', errorCount: 1, messageList: [{ message: `Failed to process request due to invalid input: ${String(bad)}`, error: true }] }
      })
    }
  })

  it('answers 404 RevisionNotFound for an unknown id on either side', async () => {
    const app = await withPolicy()
    for (const path of ['/revisions/9/deepdiff/1', '/revisions/0/deepdiff/9']) {
      const res = await get(app, path)
      expectError(res, 404, 'RevisionNotFound')
      expect(bodyOf(res)).toEqual({
        kind: 'Status',
        apiVersion: 'v1.0',
        metadata: {},
        status: 'Failure',
        message: 'The requested revision=9 was not found.',
        reason: 'Unspecified',
        code: '404 Not Found',
        retry: false,
        details: { errorType: 'RevisionNotFound', errorCount: 1, messageList: [{ message: 'The requested revision=9 was not found.', error: true }] }
      })
    }
  })

  it('answers the render\'s 409 LayeringPolicyNotFound when no LayeringPolicy exists, and other render errors with their status', async () => {
    const app = await buildTestApp()
    await putDocs(app, 'site', [{ name: 'a', layer: 'site' }]) // 1
    const res = await deepdiff(app, 0, 1)
    expectError(res, 409, 'LayeringPolicyNotFound')
    expect(bodyOf(res)).toEqual({
      kind: 'Status',
      apiVersion: 'v1.0',
      metadata: {},
      status: 'Failure',
      message: 'Required LayeringPolicy was not found for layering.',
      reason: 'Unspecified',
      code: '409 Conflict',
      retry: false,
      details: { errorType: 'LayeringPolicyNotFound', errorCount: 1, messageList: [{ message: 'Required LayeringPolicy was not found for layering.', error: true }] }
    })
    await put(app, 'policy', layeringPolicy(['global'])) // 2: layer `site` is not in the layer order
    expectError(await deepdiff(app, 2, 0), 400, 'InvalidDocumentLayer')
  })

  it('shows {encrypted: true} for the data of encrypted documents and never the secret', async () => {
    const app = await withPolicy()
    const secret = (data: string): DocSpec => ({ schema: 'deckhand/Passphrase/v1', name: 'pw', layer: 'site', storagePolicy: 'encrypted', data })
    const takesSecret = (user: string): DocSpec => ({
      schema: 'app/Config/v1',
      name: 'cfg',
      layer: 'site',
      substitutions: [{ src: { schema: 'deckhand/Passphrase/v1', name: 'pw', path: '.' }, dest: { path: '.password' } }],
      data: { user }
    })
    const plain = (user: string): DocSpec => ({ schema: 'app/Config/v1', name: 'cfg', layer: 'site', data: { user } })
    await putDocs(app, 'site', [secret('hunter2-first'), takesSecret('me')]) // 2
    await putDocs(app, 'site', [secret('hunter2-second'), takesSecret('you')]) // 3
    await putDocs(app, 'site', [secret('hunter2-second'), plain('them')]) // 4
    const res = await deepdiff(app, 2, 3)
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_changed: {
          count: 2,
          details: {
            "('app/Config/v1', 'cfg')": { data_changed: { encrypted: true }, metadata_changed: {} },
            "('deckhand/Passphrase/v1', 'pw')": { data_changed: { encrypted: true }, metadata_changed: {} }
          }
        }
      }
    })
    expect(res.body).not.toContain('hunter2')
    // a document that stops taking the secret was encrypted on the first side: its data is still not shown
    const after = await deepdiff(app, 3, 4)
    expect(bodyOf(after)).toEqual({
      policy: 'unmodified',
      site: 'modified',
      'site diff': {
        document_changed: {
          count: 1,
          details: {
            "('app/Config/v1', 'cfg')": {
              data_changed: { encrypted: true },
              metadata_changed: {
                dictionary_item_removed: ["root['substitutions']"],
                values_changed: { "root['storagePolicy']": { new_value: 'cleartext', old_value: 'encrypted' } }
              }
            }
          }
        }
      }
    })
    expect(after.body).not.toContain('hunter2')
    expect((await deepdiff(app, 0, 4)).body).not.toContain('hunter2')
  })

  it('answers 403 to a caller whose policy does not allow deckhand:show_revision_deepdiff', async () => {
    const env = {
      STORE_AUTH_TOKENS: 'admin,differ:differ',
      STORE_POLICY_FILE: policyFile({ 'deckhand:show_revision_diff': 'role:differ or role:admin' })
    }
    const admin = { 'x-auth-token': 'admin' }
    const differ = { 'x-auth-token': 'differ' }
    const app = await withPolicy(env, admin)
    expect((await get(app, '/revisions/0/diff/1', differ)).statusCode).toBe(200)
    const res = await get(app, '/revisions/0/deepdiff/1', differ)
    expectError(res, 403, 'HTTPForbidden')
    expect(bodyOf(res).message).toBe("Policy doesn't allow deckhand:show_revision_deepdiff to be performed.")
    expect(bodyOf(await get(app, '/revisions/0/deepdiff/1', admin))).toEqual({ policy: 'created' })
  })
})
