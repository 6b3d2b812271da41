// The action view's step filter: a search by step name and a choice of states, applied to the step table at once and
// kept while the action is read again.
import { h, setText } from './dom.js'
import { STEP_FILTERS } from './steps.js'

/** `onChange({ text, state })` whenever either changes. */
export function stepFilter ({ onChange }) {
  const search = h('input', { type: 'search', id: 'step-search', placeholder: 'Find a step', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Find a step by name', oninput: () => { onChange(value()) } })
  const state = h('select', { id: 'step-state', 'aria-label': 'Show steps', onchange: () => { onChange(value()) } },
    STEP_FILTERS.map((f) => h('option', { value: f.value }, f.label)))
  const count = h('span', { id: 'step-count', class: 'muted', role: 'status' })
  const value = () => ({ text: search.value.trim(), state: state.value })
  const bar = h('div', { class: 'step-filter' }, search, state, count)

  /** Says how many of the steps are shown: nothing while all are. */
  function counted (shown, total) {
    setText(count, shown === total ? '' : `${shown} of ${total} steps shown`)
  }

  return { bar, value, counted }
}
