// Figures of a running process read from /proc (Linux): resident memory and CPU time used so far, and summaries of
// a series of samples. For the benchmarks that watch processes over time (bench/soak.ts, bench/watch-500.ts).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/<pid>/stat's times (almost always 100). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** Resident memory of `pid` in MiB; NaN when it is gone. */
export function rssMiB (pid: number | undefined): number {
  if (pid === undefined) return Number.NaN
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
    return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) / 1024
  } catch {
    return Number.NaN
  }
}

/** CPU seconds (user + system) `pid` has used since it started; NaN when it is gone. */
export function cpuSeconds (pid: number | undefined): number {
  if (pid === undefined) return Number.NaN
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name, in parentheses, may hold spaces: the fields are counted after its closing one
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / TICKS
  } catch {
    return Number.NaN
  }
}

export function median (values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? Number.NaN : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

export const fixed = (value: number, digits = 1): string => Number.isNaN(value) ? '-' : value.toFixed(digits)
