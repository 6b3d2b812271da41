import { describe, expect, it } from 'vitest'
import { keptAnswers } from '../../src/domain/kept-answers.ts'

describe('kept answers', () => {
  it('make an answer once while the very same inputs come back, and again when any input is another object', () => {
    const answers = keptAnswers<{ n: number }>()
    let made = 0
    const make = () => ({ n: ++made })
    const record = { id: 'a' }
    const task = { state: 'running' }
    const first = answers('a', [record, 'running', task], make)
    expect(answers('a', [record, 'running', task], make)).toBe(first)
    // equal but not the same object: the watch or the database handed out something new
    expect(answers('a', [record, 'running', { ...task }], make)).not.toBe(first)
    expect(answers('a', [{ ...record }, 'running', task], make).n).toBe(3)
    expect(answers('a', [{ ...record }, 'running', task, task], make).n).toBe(4)
    // each key its own answer
    expect(answers('b', [record], make).n).toBe(5)
    expect(made).toBe(5)
  })

  it('keep at most the limit, the least recently made leaving first', () => {
    const answers = keptAnswers<number>(2)
    const inputs = [1]
    answers('a', inputs, () => 1)
    answers('b', inputs, () => 2)
    answers('c', inputs, () => 3)
    expect(answers('b', inputs, () => 20)).toBe(2)
    expect(answers('a', inputs, () => 10)).toBe(10)
  })
})
