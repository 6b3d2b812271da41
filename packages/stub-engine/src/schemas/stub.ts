// The stub's own failure-injection block, read from a run's `conf.stub` (docs/stand-ins.md, packages/stub-engine/README.md).
// Task keys are a bare task id (`prepare_site`) or a group-qualified one (`drydock_build.prepare_site`).
import { Type, type Static } from 'typebox'

const Ms = Type.Integer({ minimum: 0, maximum: 3_600_000 })

export const StubConfSchema = Type.Object({
  /** Fail the task's first N tries then succeed; `always` (or a number above the retries) fails the task. */
  fail: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Integer({ minimum: 0 }), Type.Literal('always')]))),
  /** Tasks that run until the run is stopped or the task is cleared or marked. */
  hang: Type.Optional(Type.Array(Type.String())),
  /** Tasks that end `skipped` (as if they raised AirflowSkipException). */
  skip: Type.Optional(Type.Array(Type.String())),
  /** Tasks that defer once for this many milliseconds before finishing (running → deferred → scheduled → … same try). */
  defer_ms: Type.Optional(Type.Record(Type.String(), Ms)),
  /** Task duration for this run: one number for every task, or per task. */
  task_ms: Type.Optional(Type.Union([Ms, Type.Record(Type.String(), Ms)])),
  /** Override a task's `retries` for this run. */
  retries: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 20 }))),
  /** Dynamically map a task into N copies (map_index 0..N-1). */
  map: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 64 })))
}, { additionalProperties: false })
export type StubConf = Static<typeof StubConfSchema>
