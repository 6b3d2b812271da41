// Wire shapes of PUT /node-labels/{node_name}, with Promenade's wording.
import { Type, type Static } from 'typebox'
import type { Wording } from '@slipway/common'

const invalidInput = (reason: string): Wording => ({ message: 'Invalid Input Error', reason, errorType: 'InvalidFormatError' })

export const NodeParamsSchema = Type.Object({ node_name: Type.String({ description: 'Kubernetes node name' }) })

/** The full desired label set: label name to value, null removes the label. */
export const LabelRequestSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()], {
  'x-invalid': invalidInput('The value of label \'{name}\' must be a string or null')
}), {
  description: 'Label name to value; null removes the label',
  'x-invalid': invalidInput('The labels must be a JSON object of label name to value'),
  'x-missing': invalidInput('Missing input: labels dict'),
  'x-undecodable': {
    message: 'JSON could not be decoded',
    reason: '{path}: Invalid JSON in body: {detail}',
    errorType: 'InvalidFormatError'
  }
})
export type LabelRequestBody = Static<typeof LabelRequestSchema>

/** The 200 answer: the same whether or not a patch was needed. */
export const LabelsUpdatedSchema = Type.Object({
  kind: Type.Literal('Status'),
  apiVersion: Type.String(),
  metadata: Type.Object({}),
  status: Type.Literal('Success'),
  message: Type.String(),
  reason: Type.String(),
  details: Type.Object({ errorCount: Type.Integer(), messageList: Type.Array(Type.Unknown()) }),
  code: Type.String()
})
export type LabelsUpdated = Static<typeof LabelsUpdatedSchema>
