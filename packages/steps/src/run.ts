// Runs one step: its context built, its work done, its failure (or a peer's) turned into a StepFailure whose
// message names what failed and how, so each engine writes it as the try's error line.
import { ARMADA_STEPS } from './steps/armada.ts'
import { stepContext, type Step, type StepLibraryDeps } from './steps/context.ts'
import { DESIGN_STEPS } from './steps/design.ts'
import { DESTROY_STEPS } from './steps/destroy.ts'
import { DRYDOCK_STEPS } from './steps/drydock.ts'
import { STATUS_STEPS } from './steps/status.ts'
import { StepFailure, type StepCall, type StepIo, type StepKind, type StepResult } from './types.ts'

const STEPS: Record<StepKind, Step> = { ...DESIGN_STEPS, ...DRYDOCK_STEPS, ...DESTROY_STEPS, ...ARMADA_STEPS, ...STATUS_STEPS }

/** The words a failure ends the try with: a step's own as they are, a peer's with its kind and cause. */
export function failureText (error: unknown): string {
  const e = error as { name?: string, message?: string, reason?: string }
  const detail = e.reason !== undefined && e.reason !== e.message ? `${e.message ?? ''} (${e.reason})` : e.message ?? String(error)
  return error instanceof StepFailure ? detail : `${e.name ?? 'Error'}: ${detail}`
}

export async function runStep (kind: StepKind, call: StepCall, io: StepIo, deps: StepLibraryDeps): Promise<StepResult> {
  try {
    return (await STEPS[kind](stepContext(call, io, deps))) ?? {}
  } catch (error) {
    if (error instanceof StepFailure) throw error
    throw new StepFailure(failureText(error))
  }
}

export const isStepKind = (kind: string): kind is StepKind => Object.hasOwn(STEPS, kind)
