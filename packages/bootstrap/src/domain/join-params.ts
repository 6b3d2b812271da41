// Parameters of GET /join-scripts (spec/bootstrap.md §6.1): required names, formats, both label spellings.
import { labelKeyProblem, labelValueProblem } from './node-labels.ts'

export interface JoinParams {
  designRef: string
  hostname: string
  ip: string
  externalIp: string
  domain: string
  dynamicLabels: string[]
  staticLabels: string[]
  leaveKubectl: boolean
}

/** A parameter problem: `missing` (HTTPMissingParam), `invalid` (HTTPInvalidParam) or `format`. */
export class ParamError extends Error {
  readonly kind: 'missing' | 'invalid' | 'format'
  readonly param: string
  constructor (kind: 'missing' | 'invalid' | 'format', param: string, message: string) {
    super(message)
    this.name = 'ParamError'
    this.kind = kind
    this.param = param
  }
}

const HOSTNAME = /^[a-z][a-z0-9-]+$/
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])'
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`)
/** A dotted IPv4 address, each octet 0–255 without leading zeros. */
export const isIpv4 = (value: string): boolean => IPV4.test(value)

const DNS_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/
// Falcon's get_param_as_bool, case and all (spec §6.1): `TRUE` or `Yes` is not a boolean; bare counts as true
const TRUE = new Set(['', 'true', 'True', 't', 'yes', 'y', '1', 'on'])
const FALSE = new Set(['false', 'False', 'f', 'no', 'n', '0', 'off'])

type Query = Record<string, string | string[] | undefined>

function single (query: Query, name: string): string | undefined {
  const value = query[name]
  return Array.isArray(value) ? value[value.length - 1] : value
}

function list (query: Query, ...names: string[]): string[] {
  return names.flatMap((name) => {
    const value = query[name]
    return value === undefined ? [] : Array.isArray(value) ? value : [value]
  })
}

function required (query: Query, name: string): string {
  const value = single(query, name)
  if (value === undefined) throw new ParamError('missing', name, `The "${name}" parameter is required.`)
  return value
}

/** Validates one `key=value` label; the value may be empty (`key=`). */
export function checkLabel (param: string, label: string): void {
  const at = label.indexOf('=')
  if (at < 0) throw new ParamError('format', param, `${param}: label '${label}' is not of the form key=value`)
  const problem = labelKeyProblem(label.slice(0, at)) ?? labelValueProblem(label.slice(at + 1))
  if (problem !== undefined) throw new ParamError('format', param, `${param}: ${problem}`)
}

/**
 * Reads and validates the query in upstream's order (spec §6.1): leave_kubectl, then every required parameter
 * (design_ref, ip, hostname) for presence, then the formats (design_ref, ip, external_ip, hostname, domain, labels).
 */
export function parseJoinParams (query: Query): JoinParams {
  const leave = single(query, 'leave_kubectl')
  let leaveKubectl = false
  if (leave !== undefined) {
    if (TRUE.has(leave)) leaveKubectl = true
    else if (!FALSE.has(leave)) throw new ParamError('invalid', 'leave_kubectl', `The "leave_kubectl" parameter is invalid: '${leave}' is not a boolean.`)
  }
  const designRef = required(query, 'design_ref')
  const ip = required(query, 'ip')
  const hostname = required(query, 'hostname')
  const externalIp = single(query, 'external_ip') ?? '127.0.0.1'
  const domain = single(query, 'domain') ?? 'local'
  const url = /^(deckhand\+)?(https?:\/\/[^\s]+)$/.exec(designRef)?.[2]
  if (url === undefined || !URL.canParse(url)) {
    throw new ParamError('format', 'design_ref', 'design_ref must be a deckhand+http(s):// or http(s):// URL')
  }
  if (!IPV4.test(ip)) throw new ParamError('format', 'ip', `ip '${ip}' is not a dotted IPv4 address`)
  if (!IPV4.test(externalIp)) throw new ParamError('format', 'external_ip', `external_ip '${externalIp}' is not a dotted IPv4 address`)
  if (!HOSTNAME.test(hostname)) throw new ParamError('format', 'hostname', `hostname '${hostname}' must match ^[a-z][a-z0-9-]+$`)
  if (!DNS_NAME.test(domain)) throw new ParamError('format', 'domain', `domain '${domain}' is not a DNS name`)
  // seed 001 spells them dynamic.labels/static.labels, every real caller labels.dynamic/labels.static: take both
  const dynamicLabels = list(query, 'labels.dynamic', 'dynamic.labels')
  const staticLabels = list(query, 'labels.static', 'static.labels')
  for (const label of dynamicLabels) checkLabel('labels.dynamic', label)
  for (const label of staticLabels) checkLabel('labels.static', label)
  return { designRef, hostname, ip, externalIp, domain, dynamicLabels, staticLabels, leaveKubectl }
}
