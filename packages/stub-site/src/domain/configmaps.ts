// Kubernetes ConfigMaps in the stand-in's namespaces: create, read, list, replace, patch and delete with the API
// server's rules — a create into an unknown namespace, a name taken, a stale resourceVersion, an invalid name, key or
// label — and the same answers. Persisted with the nodes; every change takes the site's next resource version.
import { randomUUID } from 'node:crypto'
import {
  AlreadyExistsError, BadPatchError, InvalidObjectError, NameMismatchError, NamespaceMismatchError, ObjectConflictError,
  ObjectNotFoundError, PatchTypeError
} from '../errors.ts'
import { BadRequestError } from '@slipway/common'
import type { ConfigMap } from '../schemas/kube.ts'
import type { Inventory } from './inventory.ts'
import { labelProblems } from './labels.ts'
import { mergePatch } from './merge-patch.ts'
import { generatedNameSuffix } from './pod-templates.ts'
import { requireNamespace } from './namespaces.ts'
import { createObjectList, type ObjectListOptions, type ObjectPage } from './object-list.ts'

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/
// etcd's limit on one object, which Kubernetes checks for a ConfigMap's data and binaryData together
const MAX_BYTES = 1024 * 1024

type StringMap = Record<string, string>
type Fields = Pick<ConfigMap, 'data' | 'binaryData' | 'immutable'> & { labels?: StringMap, annotations?: StringMap }
type Problem = { field: string, message: string, reason?: string }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A map of strings, or undefined for absent/null; `fail` names what is wrong otherwise. */
function stringMap (value: unknown, field: string, fail: (why: string) => Error): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined
  if (!isObject(value)) return failWith(fail, `${field} must be a map of strings`)
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') return failWith(fail, `${field}.${key} must be a string, got ${item === null ? 'null' : typeof item}`)
  }
  // an empty map is not kept (Kubernetes omits it)
  return Object.keys(value).length === 0 ? undefined : value as Record<string, string>
}

function failWith (fail: (why: string) => Error, why: string): never { throw fail(why) }

/** The fields of a ConfigMap body the stand-in keeps, checked for type. */
function fieldsOf (body: Record<string, unknown>, fail: (why: string) => Error): Fields {
  const metadata = body.metadata === undefined || body.metadata === null ? {} : body.metadata
  if (!isObject(metadata)) failWith(fail, 'metadata must be an object')
  const immutable = body.immutable
  if (immutable !== undefined && immutable !== null && typeof immutable !== 'boolean') failWith(fail, 'immutable must be a boolean')
  const fields: Fields = {}
  const set = <K extends keyof Fields>(name: K, value: Fields[K] | undefined): void => { if (value !== undefined) fields[name] = value }
  set('labels', stringMap(metadata.labels, 'metadata.labels', fail))
  set('annotations', stringMap(metadata.annotations, 'metadata.annotations', fail))
  set('data', stringMap(body.data, 'data', fail))
  set('binaryData', stringMap(body.binaryData, 'binaryData', fail))
  if (typeof immutable === 'boolean') fields.immutable = immutable
  return fields
}

/** Every rule the object breaks, as Kubernetes' field causes. */
function problems (name: string, fields: Fields): Problem[] {
  const found: Problem[] = []
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    found.push({
      field: 'metadata.name',
      message: `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
    })
  }
  found.push(...labelProblems(fields.labels ?? {}))
  let bytes = 0
  for (const [field, map] of [['data', fields.data], ['binaryData', fields.binaryData]] as const) {
    for (const [key, value] of Object.entries(map ?? {})) {
      bytes += Buffer.byteLength(value)
      if (key.length > 253 || !CONFIG_KEY.test(key)) {
        found.push({
          field: `${field}[${key}]`,
          message: `Invalid value: ${JSON.stringify(key)}: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`
        })
      }
      if (field === 'binaryData' && fields.data?.[key] !== undefined) {
        const message = `Invalid value: ${JSON.stringify(key)}: duplicate of key present in binaryData`
        found.push({ field: `data[${key}]`, message, reason: 'FieldValueDuplicate' })
      }
    }
  }
  if (bytes > MAX_BYTES) {
    found.push({ field: '[]', message: `Too long: may not be more than ${MAX_BYTES} bytes`, reason: 'FieldValueTooLong' })
  }
  return found
}

const sameFields = (a: Fields, b: Fields): boolean => JSON.stringify(a) === JSON.stringify(b)

export function createConfigMaps (deps: { inventory: Inventory, initial?: ConfigMap[] | undefined, now?: () => Date }) {
  const { inventory } = deps
  const now = deps.now ?? (() => new Date())
  const maps = new Map<string, ConfigMap>()
  const key = (namespace: string, name: string): string => `${namespace}/${name}`
  for (const map of deps.initial ?? []) maps.set(key(map.metadata.namespace, map.metadata.name), map)
  const list = createObjectList<ConfigMap>({
    read: () => ({ items: [...maps.values()], resourceVersion: inventory.resourceVersion() }),
    fields: { 'metadata.name': (m) => m.metadata.name, 'metadata.namespace': (m) => m.metadata.namespace }
  })
  // a body that does not decode as a ConfigMap (Kubernetes: 400, in its decoder's words; the explanation is ours)
  const undecodable = (why: string): Error =>
    new BadRequestError('Bad ConfigMap', `ConfigMap in version "v1" cannot be handled as a ConfigMap: ${why}`, { errorType: 'BadRequest' })

  type Base = Pick<ConfigMap['metadata'], 'name' | 'namespace' | 'uid' | 'creationTimestamp'>
  function build (base: Base, fields: Fields, resourceVersion: number): ConfigMap {
    const { labels, annotations, ...content } = fields
    const metadata: ConfigMap['metadata'] = { ...base, resourceVersion: String(resourceVersion) }
    if (labels !== undefined) metadata.labels = labels
    if (annotations !== undefined) metadata.annotations = annotations
    return { kind: 'ConfigMap', apiVersion: 'v1', metadata, ...content }
  }

  function store (map: ConfigMap): ConfigMap {
    maps.set(key(map.metadata.namespace, map.metadata.name), map)
    inventory.save()
    return map
  }

  function get (namespace: string, name: string): ConfigMap {
    const map = maps.get(key(namespace, name))
    if (map === undefined) throw new ObjectNotFoundError('configmaps', name)
    return map
  }

  function page (query: ObjectListOptions, namespace?: string): ObjectPage<ConfigMap> {
    return list.page(query, namespace)
  }

  /** Checks a body's type and its namespace against the URL's; answers the body as an object. */
  function checkBody (namespace: string, body: unknown): Record<string, unknown> {
    if (!isObject(body)) throw undecodable('the body must be a JSON object')
    const metadata = isObject(body.metadata) ? body.metadata : {}
    const bodyNamespace = metadata.namespace
    if (typeof bodyNamespace === 'string' && bodyNamespace !== '' && bodyNamespace !== namespace) throw new NamespaceMismatchError()
    return body
  }

  function create (namespace: string, body: unknown): ConfigMap {
    const object = checkBody(namespace, body)
    const fields = fieldsOf(object, undecodable)
    requireNamespace(namespace)
    const metadata = isObject(object.metadata) ? object.metadata : {}
    const generateName = typeof metadata.generateName === 'string' ? metadata.generateName : ''
    let name = typeof metadata.name === 'string' ? metadata.name : ''
    if (name === '' && generateName !== '') name = `${generateName}${generatedNameSuffix()}`
    if (name === '') {
      const message = 'Required value: name or generateName is required'
      throw new InvalidObjectError('ConfigMap', '', [{ field: 'metadata.name', message, reason: 'FieldValueRequired' }])
    }
    const found = problems(name, fields)
    if (found.length > 0) throw new InvalidObjectError('ConfigMap', name, found)
    if (maps.has(key(namespace, name))) throw new AlreadyExistsError('configmaps', name)
    const creationTimestamp = now().toISOString().replace(/\.\d{3}Z$/, 'Z')
    return store(build({ name, namespace, uid: randomUUID(), creationTimestamp }, fields, inventory.nextResourceVersion()))
  }

  /** Writes `fields` over the map, checking the name and the resourceVersion precondition the body carries. */
  function write (current: ConfigMap, body: Record<string, unknown>, fields: Fields): ConfigMap {
    const name = current.metadata.name
    const metadata = isObject(body.metadata) ? body.metadata : {}
    const bodyName = typeof metadata.name === 'string' ? metadata.name : ''
    if (bodyName !== name) throw new NameMismatchError(bodyName, name)
    const version = metadata.resourceVersion
    if (typeof version === 'string' && version !== '' && version !== current.metadata.resourceVersion) {
      throw new ObjectConflictError('configmaps', name)
    }
    const found = problems(name, fields)
    const content = (f: Fields): Fields => ({ data: f.data, binaryData: f.binaryData })
    if (current.immutable === true && (!sameFields(content(current), content(fields)) || fields.immutable !== true)) {
      found.push({ field: 'data', message: 'Forbidden: field is immutable when `immutable` is set', reason: 'FieldValueForbidden' })
    }
    if (found.length > 0) throw new InvalidObjectError('ConfigMap', name, found)
    const { namespace, uid, creationTimestamp } = current.metadata
    // a write that changes nothing leaves the resourceVersion as it is
    if (sameFields(fieldsOf(current, undecodable), fields)) return current
    return store(build({ name, namespace, uid, creationTimestamp }, fields, inventory.nextResourceVersion()))
  }

  function replace (namespace: string, name: string, body: unknown): ConfigMap {
    const object = checkBody(namespace, body)
    const fields = fieldsOf(object, undecodable)
    const metadata = isObject(object.metadata) ? object.metadata : {}
    const bodyName = typeof metadata.name === 'string' ? metadata.name : ''
    if (bodyName !== name) throw new NameMismatchError(bodyName, name)
    return write(get(namespace, name), object, fields)
  }

  function patch (namespace: string, name: string, body: unknown): ConfigMap {
    if (!isObject(body)) throw new BadPatchError('The patch must be a JSON object')
    const current = get(namespace, name)
    const patched = mergePatch(current, body) as Record<string, unknown>
    const metadata = isObject(patched.metadata) ? patched.metadata : {}
    if (typeof metadata.namespace === 'string' && metadata.namespace !== namespace) throw new NamespaceMismatchError()
    // what the patch says of resourceVersion is a precondition, not a value
    const patchMeta = isObject(body.metadata) ? body.metadata : {}
    const precondition = { ...patched, metadata: { ...metadata, resourceVersion: patchMeta.resourceVersion } }
    return write(current, precondition, fieldsOf(patched, (why) => new PatchTypeError(body, why)))
  }

  /** Deletes the map; answers its name, uid for Kubernetes' Success status. */
  function remove (namespace: string, name: string): ConfigMap {
    const map = get(namespace, name)
    maps.delete(key(namespace, name))
    inventory.nextResourceVersion()
    inventory.save()
    return map
  }

  return { get, page, create, replace, patch, delete: remove, all: (): ConfigMap[] => [...maps.values()] }
}

export type ConfigMaps = ReturnType<typeof createConfigMaps>
