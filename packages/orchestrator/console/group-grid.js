// The action view's grid of the run: a line per sub-workflow (task group) in step order, the workflow's own steps
// between them on lines of their own, each step a square in its state's colour with its state in words on hover and
// to screen readers, and how many of the line's steps are done. A square opens the step's log. Built once per set of
// steps, updated in place.
import { badgeClass, fill, h, setText } from './dom.js'
import { stateWords } from './action-state.js'
import { groupState, groupSteps, progress, taskOf } from './steps.js'

/** `onOpen(stepId)` opens a step's log. */
export function groupGrid ({ onOpen }) {
  const grid = h('div', { class: 'group-grid', id: 'group-grid' })
  const cells = new Map()
  const lines = []
  let shape = ''

  function build (steps) {
    cells.clear()
    lines.length = 0
    fill(grid, groupSteps(steps).map((block) => {
      const count = h('span', { class: 'grid-count muted' })
      const squares = block.steps.map((step) => {
        const cell = h('button', { type: 'button', class: 'grid-cell', 'data-step': step.id, onclick: () => onOpen(step.id) })
        cells.set(step.id, cell)
        return cell
      })
      // a sub-workflow's line is named after it, a line of the workflow's own steps after those steps
      const name = block.group ?? block.steps.map((s) => s.id).join(', ')
      const line = h('div', { class: 'grid-line', 'data-group': block.group ?? '' },
        h('span', { class: block.group === null ? 'grid-name own' : 'grid-name', title: name }, name), h('span', { class: 'grid-cells' }, squares), count)
      lines.push({ ids: block.steps.map((s) => s.id), count, line })
      return line
    }))
  }

  /** Shows `steps` (the action's step summaries); `stopped`: the action was stopped (a line it cut short is skipped). */
  function update (steps, { stopped = false } = {}) {
    const now = steps.map((s) => `${s.index}:${s.id}`).join(',')
    if (now !== shape) { shape = now; build(steps) }
    const byId = new Map(steps.map((s) => [s.id, s]))
    for (const [id, cell] of cells) {
      const state = byId.get(id)?.state ?? null
      const text = state === null ? 'not started' : String(state)
      const cls = `grid-cell ${badgeClass(text)}`
      if (cell.className !== cls) cell.className = cls
      if (cell.dataset.state !== text) cell.dataset.state = text
      const label = `${taskOf(id)}: ${stateWords(state)}`
      if (cell.title !== label) { cell.title = label; cell.setAttribute('aria-label', label) }
    }
    for (const { ids, count, line } of lines) {
      const own = ids.map((id) => byId.get(id) ?? { state: null })
      const { done, failed, skipped, total } = progress(own)
      setText(count, [`${done}/${total}`, ...(failed > 0 ? [`${failed} failed`] : []), ...(skipped > 0 ? [`${skipped} skipped`] : [])].join(', '))
      const state = groupState(own, { stopped }) ?? 'not started'
      if (line.dataset.state !== state) line.dataset.state = state
    }
  }

  return { grid, update }
}
