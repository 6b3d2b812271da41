// Wire shape of GET /join-scripts: the parameters, their formats, and
// the Promenade wording of a missing or malformed one (errorType, reason, one list entry naming the parameter).
import { Type, type Static } from 'typebox'
import { oneOfPattern, type Wording } from '@slipway/common'
import { IPV4_PATTERN } from '../ipv4.ts'

export { IPV4_PATTERN } from '../ipv4.ts'

const missing: Wording = {
  message: 'The "{name}" parameter is required.',
  reason: 'Missing parameter',
  errorType: 'HTTPMissingParam',
  listParameter: true
}
const malformed = (errorType: string, message: string): Wording =>
  ({ message, reason: 'Invalid parameter', errorType, listParameter: true })

export const HOSTNAME_PATTERN = '^[a-z][a-z0-9-]+$'
const DNS_NAME_PATTERN = '^(?=.{1,253}$)[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$'

/** `design_ref`: a deckhand+http(s):// or http(s):// URL that parses (the service app's `design-ref` format). */
export function isDesignRef (value: string): boolean {
  const url = /^(deckhand\+)?(https?:\/\/[^\s]+)$/.exec(value)?.[2]
  return url !== undefined && URL.canParse(url)
}

// Falcon's get_param_as_bool, case and all: `TRUE` or `Yes` is not a boolean; bare counts as true
const TRUE_SPELLINGS = ['', 'true', 'True', 't', 'yes', 'y', '1', 'on']
const FALSE_SPELLINGS = ['false', 'False', 'f', 'no', 'n', '0', 'off']

const LeaveKubectlSchema = Type.Unsafe<boolean>({
  type: 'string',
  pattern: oneOfPattern([...TRUE_SPELLINGS, ...FALSE_SPELLINGS]),
  description: 'Keep kubectl and the admin credentials (true True t yes y 1 on, bare; false False f no n 0 off)',
  'x-decode': { trueValues: TRUE_SPELLINGS, caseless: false },
  'x-invalid': {
    message: 'The "leave_kubectl" parameter is invalid: \'{value}\' is not a boolean.',
    reason: 'Invalid parameter',
    errorType: 'HTTPInvalidParam',
    listParameter: true
  } satisfies Wording
})

const Labels = (description: string) => Type.Optional(Type.Array(Type.String(), { description }))

/**
 * The query, checked in upstream's order: leave_kubectl, then every required parameter is looked for
 * (design_ref, ip, hostname) before any format (design_ref, ip, external_ip, hostname, domain); each label's
 * syntax is a rule of the domain (it words the problem it finds).
 */
export const JoinQuerySchema = Type.Object({
  design_ref: Type.String({
    format: 'design-ref',
    description: 'URL of the site design (deckhand+http(s):// or http(s)://)',
    'x-missing': missing,
    'x-invalid': malformed('InvalidFormatError', 'design_ref must be a deckhand+http(s):// or http(s):// URL')
  }),
  ip: Type.String({
    pattern: IPV4_PATTERN,
    description: 'The node\'s IPv4 address',
    'x-missing': missing,
    'x-invalid': malformed('ValidationException', 'ip \'{value}\' is not a dotted IPv4 address')
  }),
  external_ip: Type.Optional(Type.String({
    pattern: IPV4_PATTERN,
    default: '127.0.0.1',
    description: 'IPv4 address for the node\'s own name in /etc/hosts',
    'x-invalid': malformed('ValidationException', 'external_ip \'{value}\' is not a dotted IPv4 address')
  })),
  hostname: Type.String({
    pattern: HOSTNAME_PATTERN,
    description: 'Kubernetes node name',
    'x-missing': missing,
    'x-invalid': malformed('ValidationException', `hostname '{value}' must match ${HOSTNAME_PATTERN}`)
  }),
  domain: Type.Optional(Type.String({
    pattern: DNS_NAME_PATTERN,
    default: 'local',
    description: 'DNS domain',
    'x-invalid': malformed('InvalidFormatError', 'domain \'{value}\' is not a DNS name')
  })),
  'labels.dynamic': Labels('One key=value label per repetition, applied once the node is Ready'),
  'dynamic.labels': Labels('The seed\'s spelling of labels.dynamic (both are taken, labels.dynamic first)'),
  'labels.static': Labels('One key=value label per repetition, set by the kubelet at registration'),
  'static.labels': Labels('The seed\'s spelling of labels.static'),
  leave_kubectl: Type.Optional(LeaveKubectlSchema)
}, {
  // leave_kubectl is read first by Promenade; `allOf` is checked before `required` and the properties
  allOf: [{ properties: { leave_kubectl: LeaveKubectlSchema } }]
})
export type JoinQuery = Static<typeof JoinQuerySchema>

// text on the wire; the service answers it as the bytes it has made, a payload of hundreds of megabytes never
// turned into a string
export const JoinScriptTextSchema = Type.Unsafe<string | Buffer>(Type.String({ description: 'The join script (text/x-shellscript)' }))
