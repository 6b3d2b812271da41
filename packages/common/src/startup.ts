// How a service's start-up fails: what the operator can fix (a bad variable, a busy port, an address that is not
// this machine's, a database that does not answer) is one line per problem naming the variable, exit 2; anything
// else is a crash, with its stack trace, exit 1.
import { ConfigError } from './config.ts'

type StartError = NodeJS.ErrnoException & { address?: string, port?: number, hostname?: string }

/** The operator's problems behind a failed start, one line each starting with the variable; undefined for a crash. */
export function startupProblems (error: unknown): string[] | undefined {
  if (error instanceof ConfigError) return error.problems
  const e = error as StartError
  if (e.syscall === 'listen' || e.syscall === 'bind') {
    const where = `${e.address ?? '?'}:${e.port ?? '?'}`
    if (e.code === 'EADDRINUSE') return [`PORT: ${where} is in use by another process (set PORT, or stop that process)`]
    if (e.code === 'EACCES') return [`PORT: listening on ${where} needs privileges this process does not have (set PORT above 1023)`]
    if (e.code === 'EADDRNOTAVAIL') return [`HOST: ${e.address ?? '?'} is not an address of this machine`]
  }
  if (e.syscall === 'getaddrinfo' && e.code === 'ENOTFOUND') return [`HOST: ${e.hostname ?? '?'} does not resolve to an address`]
  return undefined
}

/**
 * Runs a service's start-up. A failure the operator can fix prints `<service>: <problem>` per problem on stderr
 * and exits 2; any other failure is thrown on (Node prints it and exits 1).
 */
export async function runService (
  service: string,
  start: () => Promise<unknown>,
  exit: (code: number) => void = (code) => process.exit(code)
): Promise<void> {
  try {
    await start()
  } catch (error) {
    const problems = startupProblems(error)
    if (problems === undefined) throw error
    for (const problem of problems) process.stderr.write(`${service}: ${problem}\n`)
    exit(2)
  }
}
