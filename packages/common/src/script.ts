// A bash script that prepares a real peer (installs Airflow, builds kube-apiserver): what it prints on stderr is
// progress, handed on line by line; its last stdout line is its answer. Exit 3 is the script's way of saying this
// machine cannot do it (no interpreter, no package index): the caller turns that into an error of its own, for a
// visible skip. Not part of the package index: import it as @slipway/common/script.
import { spawn } from 'node:child_process'

export interface ScriptOptions {
  /** Names the script in the error of a failed run, e.g. `kubernetes build`. */
  name: string
  /** Called with each non-blank line the script prints on stderr. */
  output?: (line: string) => void
  /** The error for exit 3, given the script's last stderr line (undefined when it said nothing). */
  unavailable: (reason: string | undefined) => Error
}

export interface ScriptAnswer {
  /** The last line the script printed on stdout ('' when none). */
  answer: string
  /** Every non-blank line it printed on stderr. */
  said: string[]
}

/** Runs `bash script ...args` to its end: its answer, or an error naming it with its last five stderr lines. */
export async function runScript (script: string, args: string[], options: ScriptOptions): Promise<ScriptAnswer> {
  const output = options.output ?? (() => {})
  return await new Promise((resolve, reject) => {
    const child = spawn('bash', [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    const said: string[] = []
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') { said.push(line); output(line) }
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code === 0) resolve({ answer: stdout.trim().split('\n').at(-1) ?? '', said })
      else if (code === 3) reject(options.unavailable(said.at(-1)))
      else reject(new Error(`${options.name} failed (exit ${code}): ${said.slice(-5).join(' | ')}`))
    })
  })
}
