// Parameters of GET /join-scripts as the script needs them, and the label syntax rule.
import { BadRequestError } from '@slipway/common'
import { labelKeyProblem, labelValueProblem } from './node-labels.ts'
import type { JoinQuery } from '../schemas/join-scripts.ts'

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

const PARAM_ERROR_TYPE = { missing: 'HTTPMissingParam', invalid: 'HTTPInvalidParam', format: 'InvalidFormatError' } as const
// a malformed node parameter is Promenade's ValidationException; any other malformed parameter its InvalidFormatError
const NODE_FORMAT_PARAMS = new Set(['hostname', 'ip', 'external_ip'])

/**
 * A parameter problem, a 400 naming the parameter in its one list entry: `missing` (HTTPMissingParam), `invalid`
 * (HTTPInvalidParam) or `format`.
 */
export class ParamError extends BadRequestError {
  readonly kind: 'missing' | 'invalid' | 'format'
  readonly param: string
  constructor (kind: 'missing' | 'invalid' | 'format', param: string, message: string) {
    super(message, kind === 'missing' ? 'Missing parameter' : 'Invalid parameter', {
      errorType: kind === 'format' && NODE_FORMAT_PARAMS.has(param) ? 'ValidationException' : PARAM_ERROR_TYPE[kind],
      errorList: [{ message, parameter: param }]
    })
    this.kind = kind
    this.param = param
  }
}

/** Validates one `key=value` label; the value may be empty (`key=`). */
export function checkLabel (param: string, label: string): void {
  const at = label.indexOf('=')
  if (at < 0) throw new ParamError('format', param, `${param}: label '${label}' is not of the form key=value`)
  const problem = labelKeyProblem(label.slice(0, at)) ?? labelValueProblem(label.slice(at + 1))
  if (problem !== undefined) throw new ParamError('format', param, `${param}: ${problem}`)
}

/**
 * The parameters of a query the route's schema has checked (presence and formats), with each label's
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
