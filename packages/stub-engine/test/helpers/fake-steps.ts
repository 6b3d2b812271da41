// A fake step library for the engine's tests: every site step the engine runs is recorded with the call it was
// given, and answers what the test tells it (by default a success with one line naming the kind and the task).
import { StepFailure, type StepCall, type StepIo, type StepKind, type StepResult } from '@slipway/steps'
import type { SideEffects } from '../../src/index.ts'

export interface RecordedStep { kind: StepKind, call: StepCall }

export interface FakeSteps {
  effects: SideEffects
  calls: RecordedStep[]
  /** What a kind does, by kind; absent: the default success. Throw a StepFailure to fail the try. */
  answers: Map<StepKind, (call: StepCall, io: StepIo) => Promise<StepResult> | StepResult>
}

export function fakeSteps (): FakeSteps {
  const fake: FakeSteps = {
    calls: [],
    answers: new Map(),
    effects: {
      steps: {
        async run (kind, call, io) {
          fake.calls.push({ kind, call })
          const answer = fake.answers.get(kind)
          if (answer !== undefined) return await answer(call, io)
          io.log(`did ${kind} for ${call.taskId}`)
          return {}
        }
      }
    }
  }
  return fake
}

export { StepFailure }
