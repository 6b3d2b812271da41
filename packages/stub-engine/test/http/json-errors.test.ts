// Where and why a body is not JSON, as Python's json decoder says it (Airflow's 422 for a malformed body): each
// expectation below is what Python 3.11's json.loads answered for the same text.
import { describe, expect, it } from 'vitest'
import { pythonJsonProblem } from '../../src/http/json-errors.ts'

const PYTHON: Array<[string, string, number]> = [
  ['{"dag_run_id": ', 'Expecting value', 15],
  ['{', 'Expecting property name enclosed in double quotes', 1],
  ['{"a"', "Expecting ':' delimiter", 4],
  ['{"a" 1}', "Expecting ':' delimiter", 5],
  ['{"a": 1', "Expecting ',' delimiter", 7],
  ['{"a": 1,}', 'Expecting property name enclosed in double quotes', 8],
  ['[1,]', 'Expecting value', 3],
  ['[1 2]', "Expecting ',' delimiter", 3],
  ['"abc', 'Unterminated string starting at', 0],
  ['"a\u0001"', 'Invalid control character at', 2],
  ['"\\x"', 'Invalid \\escape', 1],
  ['"\\u12"', 'Invalid \\uXXXX escape', 2],
  ['{} x', 'Extra data', 3],
  ['-', 'Expecting value', 0],
  ['tru', 'Expecting value', 0],
  ['  \n', 'Expecting value', 3],
  ['{"a": [1, {"b": nul}]}', 'Expecting value', 16],
  ['{"a":1}}', 'Extra data', 7]
]

describe('pythonJsonProblem', () => {
  it.each(PYTHON)('%j: %s at %i, as Python says', (text, message, position) => {
    expect(pythonJsonProblem(text)).toEqual({ message, position })
  })

  it('reads what Python reads, NaN and Infinity included', () => {
    for (const text of ['{"a": [1, -2.5e3, "x\\n\\u00e9", true, null]}', 'NaN', '-Infinity', ' {} ']) expect(pythonJsonProblem(text)).toBeNull()
  })
})
