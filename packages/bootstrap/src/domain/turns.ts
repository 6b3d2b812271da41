// Long work on the event loop, cut into slices: between slices the loop gets a turn, so that health and other
// requests are answered while a big design is read or validated.

/** A function to await between steps of some work: it gives the event loop a turn once `sliceMs` have passed since the last. */
export function eventLoopTurns (sliceMs: number): () => Promise<void> {
  let sliceStarted = performance.now()
  return async () => {
    if (performance.now() - sliceStarted < sliceMs) return
    await new Promise((resolve) => setImmediate(resolve))
    sliceStarted = performance.now()
  }
}
