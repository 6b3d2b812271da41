// The fault the stand-in plays on its Drydock and Kubernetes routes, so tests can see how callers handle a broken peer.
import type { Fault } from '../schemas/nodes.ts'

export function createFaults (initial: Fault = { mode: 'none' }) {
  let current: Fault = { ...initial }
  return {
    get: (): Fault => ({ ...current }),
    set: (fault: Fault): Fault => {
      current = fault.mode === 'error' ? { mode: 'error', status: fault.status ?? 500 } : { mode: fault.mode }
      return { ...current }
    }
  }
}

export type Faults = ReturnType<typeof createFaults>
