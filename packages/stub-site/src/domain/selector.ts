// Kubernetes equality-based label selectors (`a=b`, `a==b`, `a!=b`, `a`, `!a`, comma = and), as the
// bootstrap service uses to find the API-server nodes (spec/bootstrap.md §6.2).

export type LabelTest = (labels: Record<string, string>) => boolean

/** Parses a selector; throws on a term it does not understand. The empty selector matches everything. */
export function parseSelector (selector: string): LabelTest {
  const tests: LabelTest[] = selector.split(',').map((term) => term.trim()).filter((term) => term !== '').map((term) => {
    let match = /^([^!=\s]+)\s*(==|=|!=)\s*([^!=\s]*)$/.exec(term)
    if (match !== null) {
      const [, key = '', op, value = ''] = match
      return op === '!=' ? (labels) => labels[key] !== value : (labels) => labels[key] === value
    }
    match = /^(!?)([^!=\s]+)$/.exec(term)
    if (match !== null) {
      const [, not, key = ''] = match
      return not === '!' ? (labels) => !(key in labels) : (labels) => key in labels
    }
    throw new Error(`unable to parse requirement: ${term}`)
  })
  return (labels) => tests.every((test) => test(labels))
}
