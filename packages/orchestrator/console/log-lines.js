// A step's log as the log pane shows it, without the DOM: which lines are errors, and the name a download takes.

// a line that says something went wrong: an ERROR or CRITICAL level, a traceback and its frames, an exception's last
// line (`RuntimeError: …`), or the engine marking the try as failed
const ERROR_HEAD = /^\[[^\]]*\]\s+(ERROR|CRITICAL|FATAL)\b/
const TRACE = /^(Traceback \(most recent call last\):|\s+File ".*", line \d+|During handling of the above exception|The above exception was the direct cause)/
const EXCEPTION = /^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)(:|$)/
const MARKED_FAILED = /Marking task as (FAILED|UP_FOR_RETRY|UPSTREAM_FAILED)/

/** True when `line` tells of an error. */
export const isErrorLine = (line) => ERROR_HEAD.test(line) || TRACE.test(line) || EXCEPTION.test(line) || MARKED_FAILED.test(line)

/**
 * The log cut into runs of lines, each `{ text, error }`: consecutive lines that are errors, or that are not, make
 * one run (fewer elements for a long log). The runs joined with newlines are the log again.
 */
export function logLines (text) {
  const out = []
  for (const line of String(text).split('\n')) {
    const error = isErrorLine(line)
    const last = out.at(-1)
    if (last !== undefined && last.error === error) last.text += `\n${line}`
    else out.push({ text: line, error })
  }
  return out
}

/** `<action>-<step>-try<n>.log`, with anything but letters, digits, `.`, `_` and `-` made `_`. */
export function logFileName (actionId, stepId, tryNumber) {
  return `${actionId}-${stepId}-try${tryNumber}.log`.replace(/[^A-Za-z0-9._-]/g, '_')
}
