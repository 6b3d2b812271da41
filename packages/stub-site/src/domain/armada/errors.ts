// The Armada stand-in's error conditions, with the wording Armada answers them with.
import { ApiError } from '@slipway/common'

/**
 * An error Armada's controllers answer themselves (return_error): `{type: "error", message, retry}` with the status,
 * not the Airship error body its framework writes for everything else.
 */
export class ArmadaError extends ApiError {
  constructor (statusCode: number, message: string, options: { retry?: boolean, errorType?: string } = {}) {
    super(statusCode, message, message, { retry: options.retry ?? false, errorType: options.errorType ?? 'ArmadaError' })
  }
}

/** Armada's ManifestException family: the documents do not make the one manifest an apply needs (400). */
export class ManifestError extends ArmadaError {
  constructor (message: string) { super(400, message, { errorType: 'ManifestException' }) }
}

export const manifestErrors = {
  multiple: () => new ManifestError('An error occurred while generating the manifest: Multiple manifests are not ' +
    'supported. Ensure that the `target_manifest` option is set to specify the target manifest.'),
  incomplete: () => new ManifestError('An error occurred while generating the manifest: Documents must be a list of ' +
    "documents with at least one of each of the following schemas: ['armada/Chart/v1', 'armada/ChartGroup/v1'] " +
    'and only one manifest.'),
  missingGroup: (group: string) => new ManifestError(
    `An error occurred while building chart group: Could not build armada/ChartGroup/v1 named "${group}".`),
  // Armada reports a chart group naming a missing chart as a failure to build the group, not the chart
  groupWithMissingChart: (group: string) => new ManifestError(
    `An error occurred while building chart group: Could not build chart group ${group} in armada/ChartGroup/v1.`),
  missingDependency: (chart: string) => new ManifestError(
    `An error occurred while building a dependency chart: Could not build dependencies for chart ${chart} in armada/Chart/v1.`)
}

/** An apply Armada could not finish: 500 `Failed to apply manifest: …`. */
export class ApplyFailedError extends ArmadaError {
  constructor (cause: string) { super(500, `Failed to apply manifest: ${cause}`, { errorType: 'ApplyFailed' }) }
}

/** The site design behind an href could not be read (Armada: ReferenceResolver's InvalidPathException). */
export class DesignUnreachableError extends ApiError {
  constructor (href: string, why: string) {
    super(500, `Unhandled Exception raised: Unable to resolve path ${href}`, why, { retry: true, errorType: 'InvalidPathException' })
  }
}
