// Wire shapes of the Armada stand-in (Armada's API v1.0 under /armada/api/v1.0) and of its control routes.
import { Type, type Static } from 'typebox'

// Armada reads its boolean options with falcon's get_param_as_bool, which takes these spellings and no others
export const TRUE_PARAMS = ['true', 'True', 't', 'yes', 'y', '1', 'on']
export const FALSE_PARAMS = ['false', 'False', 'f', 'no', 'n', '0', 'off']
const BooleanParam = Type.String({ pattern: `^(${[...TRUE_PARAMS, ...FALSE_PARAMS].join('|')})$` })

/** Query options of POST /apply (the tiller_* options older clients send are accepted and ignored). */
export const ApplyQuerySchema = Type.Object({
  target_manifest: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
  timeout: Type.Optional(Type.Integer()),
  disable_update_pre: Type.Optional(BooleanParam),
  disable_update_post: Type.Optional(BooleanParam),
  enable_chart_cleanup: Type.Optional(BooleanParam),
  dry_run: Type.Optional(BooleanParam),
  wait: Type.Optional(BooleanParam)
}, { additionalProperties: true })
export type ApplyQuery = Static<typeof ApplyQuerySchema>

/** What one apply did, as Armada's sync() reports it; `diff` entries map a chart's release (unprefixed) to its diff. */
export const ApplyMessageSchema = Type.Object({
  install: Type.Array(Type.String()),
  upgrade: Type.Array(Type.String()),
  diff: Type.Array(Type.Record(Type.String(), Type.String())),
  purge: Type.Array(Type.String()),
  protected: Type.Array(Type.String())
})
export type ApplyMessage = Static<typeof ApplyMessageSchema>

export const ApplyAnswerSchema = Type.Object({ message: ApplyMessageSchema })

/** GET /releases: release names by namespace. */
export const ReleasesAnswerSchema = Type.Object({ releases: Type.Record(Type.String(), Type.Array(Type.String())) })
export type ReleasesAnswer = Static<typeof ReleasesAnswerSchema>

/** GET /test/{release}: `PASSED: <release>` / `MESSAGE: Test Pass`, or FAILED / Test Fail. */
export const TestAnswerSchema = Type.Object({ result: Type.String(), message: Type.String() })
export type TestAnswer = Static<typeof TestAnswerSchema>

/** POST /tests: the manifest's releases by test outcome (skipped: not installed). */
export const TestsAnswerSchema = Type.Object({
  tests: Type.Object({ passed: Type.Array(Type.String()), skipped: Type.Array(Type.String()), failed: Type.Array(Type.String()) })
})
export type TestsAnswer = Static<typeof TestsAnswerSchema>

/** One entry of a validation answer, as Armada's ValidationMessage writes it. */
export const ArmadaValidationMessageSchema = Type.Object({
  message: Type.String(),
  error: Type.Boolean(),
  name: Type.String(),
  documents: Type.Array(Type.Object({ schema: Type.String(), name: Type.String() })),
  level: Type.String(),
  kind: Type.Literal('ValidationMessage'),
  diagnostic: Type.Optional(Type.String())
})
export type ArmadaValidationMessage = Static<typeof ArmadaValidationMessageSchema>

/** POST /validatedesign and a refused POST /tests: Armada's Status body (its `code` is a number). */
export const ArmadaStatusSchema = Type.Object({
  kind: Type.Literal('Status'),
  apiVersion: Type.Literal('v1.0'),
  metadata: Type.Object({}),
  reason: Type.Literal('Validation'),
  details: Type.Object({ errorCount: Type.Integer(), messageList: Type.Array(ArmadaValidationMessageSchema) }),
  status: Type.Union([Type.Literal('Success'), Type.Literal('Failure')]),
  message: Type.String(),
  code: Type.Integer()
})
export type ArmadaStatus = Static<typeof ArmadaStatusSchema>

/** The body Armada's controllers answer their own errors with (return_error). */
export const ArmadaErrorBodySchema = Type.Object({ type: Type.Literal('error'), message: Type.String(), retry: Type.Boolean() })

/** One installed release, as the stand-in keeps it. */
export const ArmadaReleaseSchema = Type.Object({
  name: Type.String(),
  namespace: Type.String(),
  /** The chart document's metadata.name. */
  chart: Type.String(),
  /** The chart's inputs compared on the next apply: chart_name, source, dependencies, version, values. */
  inputs: Type.Record(Type.String(), Type.Unknown()),
  revision: Type.Integer({ minimum: 1 }),
  status: Type.Union([Type.Literal('deployed'), Type.Literal('failed')]),
  /** Whether the release's last tests passed; absent: never tested. */
  test_passed: Type.Optional(Type.Boolean()),
  updated: Type.String()
})
export type ArmadaRelease = Static<typeof ArmadaReleaseSchema>

/** SITE_DATA_DIR/armada-state.json */
export const ArmadaStateSchema = Type.Object({ version: Type.Literal(1), releases: Type.Array(ArmadaReleaseSchema) })
export type ArmadaState = Static<typeof ArmadaStateSchema>

/** GET|PUT /_stub/armada/faults: releases whose apply, or whose tests, fail; `*` is every release. */
export const ArmadaFaultsSchema = Type.Object({
  fail_apply: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 1000 }),
  fail_tests: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 1000 })
}, { additionalProperties: false })
export type ArmadaFaults = Static<typeof ArmadaFaultsSchema>
