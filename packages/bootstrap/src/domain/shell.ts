// Quoting for the bash text of a join script.

/** Single-quotes a value for bash: nothing inside can expand or end the word. */
export function shellQuote (value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`
}
