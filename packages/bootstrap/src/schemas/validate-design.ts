// Wire shape of POST /validatedesign: bad input is one validation message.
import { Type } from 'typebox'
import type { Wording } from '@slipway/common'

const noHref: Wording = { name: 'Missing href', message: 'The body must be an object with a string href' }

/** Shipyard's request (a design reference): only href is used; rel and type are taken and ignored. */
export const ValidateDesignBodySchema = Type.Object({
  href: Type.String({ minLength: 1, description: 'Location of the design', 'x-invalid': noHref, 'x-missing': noHref }),
  rel: Type.Optional(Type.Unknown({ description: 'Ignored (Shipyard sends design)' })),
  type: Type.Optional(Type.Unknown({ description: 'Ignored (Shipyard sends application/x-yaml)' }))
}, {
  'x-invalid': noHref,
  'x-missing': { name: 'Missing body', message: 'Missing input: a JSON body with href is required' },
  'x-unsupported': { name: 'Invalid content type', message: 'Content type must be application/json, got {contentType}' },
  'x-undecodable': { name: 'JSON could not be decoded', message: 'Invalid JSON Format: {detail}' }
})
