// A line diff of two texts computed in the browser (the API serves each version of a collection, not their
// difference): the shortest edit script by Myers' greedy method, then unified-diff hunks with context lines.

/** Beyond this many differing lines the texts are shown as all removed, then all added (bounded work and memory). */
export const MAX_EDITS = 2000

/** Lines of a text; a final newline does not make an empty last line. */
export function linesOf (text) {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/** `[{ op: ' ' | '-' | '+', text }]`: the edits turning `a` into `b` (arrays of lines), deletions before additions. */
export function diffLines (a, b) {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const same = (from, to) => a.slice(from, to).map((text) => ({ op: ' ', text }))
  const middle = editScript(a.slice(head, a.length - tail), b.slice(head, b.length - tail))
  return [...same(0, head), ...middle, ...same(a.length - tail, a.length)]
}

function editScript (a, b) {
  const n = a.length
  const m = b.length
  if (n === 0 || m === 0) return [...a.map((text) => ({ op: '-', text })), ...b.map((text) => ({ op: '+', text }))]
  const limit = Math.min(n + m, MAX_EDITS)
  const offset = limit + 1
  // furthest x reached on each diagonal k = x - y; a copy per round (only diagonals -d..d) to walk back through
  const furthest = new Int32Array(2 * offset + 1)
  const rounds = []
  for (let d = 0; d <= limit; d++) {
    rounds.push(furthest.slice(offset - d, offset + d + 1))
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && furthest[offset + k - 1] < furthest[offset + k + 1])
      let x = down ? furthest[offset + k + 1] : furthest[offset + k - 1] + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) { x++; y++ }
      furthest[offset + k] = x
      if (x >= n && y >= m) return walkBack(a, b, rounds, d)
    }
  }
  return [...a.map((text) => ({ op: '-', text })), ...b.map((text) => ({ op: '+', text }))]
}

function walkBack (a, b, rounds, edits) {
  const script = []
  let x = a.length
  let y = b.length
  for (let d = edits; d > 0; d--) {
    // rounds[d] holds the diagonals -d..d as they were before round d, at index k + d
    const before = rounds[d]
    const at = (k) => before[k + d]
    const k = x - y
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1))
    const fromK = down ? k + 1 : k - 1
    const fromX = at(fromK)
    const fromY = fromX - fromK
    while (x > fromX && y > fromY) { script.push({ op: ' ', text: a[x - 1] }); x--; y-- }
    if (down) { script.push({ op: '+', text: b[y - 1] }); y-- } else { script.push({ op: '-', text: a[x - 1] }); x-- }
  }
  while (x > 0 && y > 0) { script.push({ op: ' ', text: a[x - 1] }); x--; y-- }
  return orderChanges(script.reverse())
}

/** Within each run of changes, removed lines come before added ones, as unified diffs show them. */
function orderChanges (script) {
  const out = []
  let removed = []
  let added = []
  const flush = () => { out.push(...removed, ...added); removed = []; added = [] }
  for (const edit of script) {
    if (edit.op === '-') removed.push(edit)
    else if (edit.op === '+') added.push(edit)
    else { flush(); out.push(edit) }
  }
  flush()
  return out
}

/**
 * Unified-diff hunks: `[{ header: '@@ -a,b +c,d @@', lines: [{ op, text, oldNo, newNo }] }]`, each change with
 * up to `context` unchanged lines around it; hunks closer than twice that are joined.
 */
export function hunks (script, context = 3) {
  const numbered = []
  let oldNo = 0
  let newNo = 0
  for (const edit of script) {
    if (edit.op !== '+') oldNo++
    if (edit.op !== '-') newNo++
    numbered.push({ ...edit, oldNo: edit.op === '+' ? null : oldNo, newNo: edit.op === '-' ? null : newNo })
  }
  const changed = numbered.flatMap((line, i) => line.op === ' ' ? [] : [i])
  const ranges = []
  for (const i of changed) {
    const last = ranges.at(-1)
    if (last !== undefined && i - last.to <= 2 * context + 1) last.to = i
    else ranges.push({ from: i, to: i })
  }
  return ranges.map(({ from, to }) => {
    const lines = numbered.slice(Math.max(0, from - context), Math.min(numbered.length, to + context + 1))
    return { header: headerOf(lines, numbered, from), lines }
  })
}

function headerOf (lines, numbered, from) {
  const olds = lines.filter((l) => l.oldNo !== null)
  const news = lines.filter((l) => l.newNo !== null)
  // an empty side starts at the line before the hunk, as diff -u writes it
  const before = (pick) => {
    for (let i = from; i >= 0; i--) { const no = pick(numbered[i]); if (no !== null) return no }
    return 0
  }
  const oldStart = olds.length > 0 ? olds[0].oldNo : before((l) => l.oldNo)
  const newStart = news.length > 0 ? news[0].newNo : before((l) => l.newNo)
  return `@@ -${oldStart},${olds.length} +${newStart},${news.length} @@`
}

/** Lines added and removed. */
export function countChanges (script) {
  return { added: script.filter((e) => e.op === '+').length, removed: script.filter((e) => e.op === '-').length }
}
