// Waiting between polls: a timer the engine's stop ends at once.
import { StepFailure } from '../types.ts'

export async function wait (ms: number, signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    if (signal.aborted) { reject(new StepFailure('The step was stopped')); return }
    const onAbort = (): void => { clearTimeout(timer); reject(new StepFailure('The step was stopped')) }
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve() }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
