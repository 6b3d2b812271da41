// Parameters of GET /join-scripts (spec/bootstrap.md §6.1) as the script needs them, and the label syntax rule.
import { labelKeyProblem, labelValueProblem } from './node-labels.ts'
import { IPV4_PATTERN, type JoinQuery } from '../schemas/join-scripts.ts'

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

const IPV4 = new RegExp(IPV4_PATTERN)
/** A dotted IPv4 address, each octet 0–255 without leading zeros. */
export const isIpv4 = (value: string): boolean => IPV4.test(value)

/** Validates one `key=value` label; the value may be empty (`key=`). */
export function checkLabel (param: string, label: string): void {
  const at = label.indexOf('=')
  if (at < 0) throw new ParamError('format', param, `${param}: label '${label}' is not of the form key=value`)
  const problem = labelKeyProblem(label.slice(0, at)) ?? labelValueProblem(label.slice(at + 1))
  if (problem !== undefined) throw new ParamError('format', param, `${param}: ${problem}`)
}

/**
 * The parameters of a query the route's schema has checked (presence and formats, spec §6.1), with each label's
 * syntax checked here: both spellings of the label lists, `labels.*` first.
 */
export function joinParamsOf (query: JoinQuery): JoinParams {
  const dynamicLabels = [...query['labels.dynamic'] ?? [], ...query['dynamic.labels'] ?? []]
  const staticLabels = [...query['labels.static'] ?? [], ...query['static.labels'] ?? []]
  for (const label of dynamicLabels) checkLabel('labels.dynamic', label)
  for (const label of staticLabels) checkLabel('labels.static', label)
  return {
    designRef: query.design_ref,
    hostname: query.hostname,
    ip: query.ip,
    externalIp: query.external_ip ?? '127.0.0.1',
    domain: query.domain ?? 'local',
    dynamicLabels,
    staticLabels,
    leaveKubectl: query.leave_kubectl === true
  }
}
