// The Armada stand-in: applies a design's armada manifest to the releases it keeps, lists them, tests them, and
// validates a design's Armada documents, with Armada's answers and wording.
import type { CallContext } from '@slipway/common'
import type { ApplyMessage, ArmadaStatus, ArmadaValidationMessage, TestAnswer, TestsAnswer } from '../../schemas/armada.ts'
import { createApplier, type ApplyOptions } from './apply.ts'
import { ApplyFailedError, ArmadaError } from './errors.ts'
import { applyOverrides, buildManifest, toDocuments } from './manifest.ts'
import type { ArmadaFaultSettings, ReleaseStore } from './releases.ts'
import { validateArmadaDocuments } from './validate.ts'

/** Reads the documents an href names (the client of the store, or of any design host). */
export interface DesignReader {
  documents: (href: string, ctx: CallContext) => Promise<unknown[]>
}

export interface ApplyRequest extends ApplyOptions {
  target?: string | undefined
  overrides: string[]
}

/** Armada's validation Status: 200 and Success without errors, else 400 and Failure. */
export function validationStatus (messages: ArmadaValidationMessage[], wording: { success: string, failure: string }): ArmadaStatus {
  const errorCount = messages.filter((m) => m.error).length
  const failed = errorCount > 0
  return {
    kind: 'Status',
    apiVersion: 'v1.0',
    metadata: {},
    reason: 'Validation',
    details: { errorCount, messageList: messages },
    status: failed ? 'Failure' : 'Success',
    message: failed ? wording.failure : wording.success,
    code: failed ? 400 : 200
  }
}

export function createArmada (deps: { design: DesignReader, releases: ReleaseStore, faults: ArmadaFaultSettings, now?: () => Date }) {
  const { design, releases, faults } = deps
  const applier = createApplier({ releases, faults, now: deps.now })

  async function read (hrefs: string[], ctx: CallContext): Promise<unknown[]> {
    const documents: unknown[] = []
    for (const href of hrefs) documents.push(...await design.documents(href, ctx))
    return documents
  }

  /** Applies the manifest in `raws` (a parsed YAML stream) after the overrides. */
  function applyDocuments (raws: unknown[], request: ApplyRequest): ApplyMessage {
    const documents = applyOverrides(raws, request.overrides)
    const problems = validateArmadaDocuments(documents).filter((m) => m.error)
    if (problems.length > 0) {
      throw new ApplyFailedError(`Armada manifest(s) failed validation. Details: ${problems.map((m) => m.message).join(' ')}`)
    }
    const manifest = buildManifest(toDocuments(documents), request.target)
    return applier.apply(manifest, request)
  }

  /** Applies the manifest of the documents the hrefs name. */
  async function applyReferences (hrefs: string[], request: ApplyRequest, ctx: CallContext): Promise<ApplyMessage> {
    return applyDocuments(await read(hrefs, ctx), request)
  }

  /** Runs a release's tests; an unknown release is Armada's 500 (its Helm call fails). */
  function testRelease (name: string, namespace?: string): TestAnswer {
    const release = releases.find(name)
    if (release === undefined || (namespace !== undefined && release.namespace !== namespace)) {
      throw new ArmadaError(500, `Failed to test ${name}: release: "${name}" not found`)
    }
    const passed = !faults.testFails(release.name, release.chart)
    releases.put({ ...release, test_passed: passed })
    return passed
      ? { result: `PASSED: ${name}`, message: 'MESSAGE: Test Pass' }
      : { result: `FAILED: ${name}`, message: 'MESSAGE: Test Fail' }
  }

  /** Tests every release of the manifest in `raws`: a refused design is a Status (400), else the outcomes. */
  function testManifest (raws: unknown[], target?: string): { refused: ArmadaStatus } | { answer: TestsAnswer } {
    const messages = validateArmadaDocuments(raws)
    if (messages.some((m) => m.error)) {
      return {
        refused: validationStatus(messages, {
          success: 'Armada validations succeeded.',
          failure: 'Failed to validate documents or generate Armada Manifest from documents.'
        })
      }
    }
    const manifest = buildManifest(toDocuments(raws), target)
    const tests: TestsAnswer['tests'] = { passed: [], skipped: [], failed: [] }
    for (const chart of manifest.groups.flatMap((g) => g.charts)) {
      const release = releases.find(chart.releaseName)
      if (release === undefined) {
        tests.skipped.push(chart.releaseName)
        continue
      }
      const passed = !faults.testFails(chart.releaseName, chart.release, chart.document)
      releases.put({ ...release, test_passed: passed })
      tests[passed ? 'passed' : 'failed'].push(chart.releaseName)
    }
    return { answer: { tests } }
  }

  const VALIDATE_WORDING = { success: 'Armada validations succeeded', failure: 'Armada validations failed' }

  /** Validates the Armada documents of the design an href names. */
  async function validateReference (href: string, ctx: CallContext): Promise<ArmadaStatus> {
    return validationStatus(validateArmadaDocuments(await read([href], ctx)), VALIDATE_WORDING)
  }

  function validateDocuments (raws: unknown[]): ArmadaStatus {
    return validationStatus(validateArmadaDocuments(raws), VALIDATE_WORDING)
  }

  return {
    applyDocuments,
    applyReferences,
    releases: () => releases.byNamespace(),
    testRelease,
    testManifest,
    validateReference,
    validateDocuments,
    store: releases,
    faults
  }
}

export type Armada = ReturnType<typeof createArmada>
