// The bootstrap service's own errors about a design, as @slipway/common's errors: a design that lacks what a node
// needs or breaks a rule is a 400 whose message and reason are the same text, with Promenade's error type.
import { BadRequestError } from '@slipway/common'

/** A design that lacks what a node needs, or breaks a rule; answered as 400. */
export class DesignError extends BadRequestError {
  constructor (message: string, errorType = 'ValidationException') {
    super(message, message, { errorType })
  }
}

/** A fetched design that does not parse as YAML: a 400 for validatedesign, the store's 502 for join-scripts. */
export class DesignYamlError extends DesignError {
  constructor (where: string) {
    super(`The design is not valid YAML${where}`, 'InvalidFormatError')
  }
}

/** A design larger in documents or in reading work than this service reads: a 400, whatever the route. */
export class DesignLimitError extends DesignError {
  constructor (message: string) {
    super(message, 'InvalidFormatError')
  }
}
