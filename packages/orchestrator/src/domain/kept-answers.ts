// Answers made from what other parts read (a database record, the engine watch's run and task instances), kept per key
// while the very same inputs come back: the watch hands out the same objects until the engine changes them, SQLite's
// detail read the same record until anything is written, so a polled action's answer is made once per change, never
// older than its inputs (a stale watch, or PostgreSQL, hands out new objects, and the answer is made again).

/** The very same inputs, one by one (Object.is): what was made from them still holds. */
export const sameInputs = (a: unknown[], b: unknown[]): boolean => a.length === b.length && a.every((input, i) => Object.is(input, b[i]))

export function keptAnswers<A> (limit = 256) {
  const kept = new Map<string, { inputs: unknown[], answer: A }>()
  return function answer (key: string, inputs: unknown[], make: () => A): A {
    const found = kept.get(key)
    if (found !== undefined && sameInputs(found.inputs, inputs)) {
      return found.answer
    }
    const made = make()
    kept.delete(key)
    if (kept.size >= limit) kept.delete(kept.keys().next().value as string)
    kept.set(key, { inputs, answer: made })
    return made
  }
}
