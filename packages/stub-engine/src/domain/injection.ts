// Failure injection: what a task should do on a given try, from the run's `conf.stub` and the environment.
import type { StubConf } from '../schemas/stub.ts'
import { taskName } from './workflows.ts'

/** One environment rule: `[dag_id/]task_id[=N]`. */
interface EnvRule { dagId: string | null, taskId: string, times: number }

export interface InjectionRules { fail: EnvRule[], hang: EnvRule[] }

/** Where a task sits: its DAG and its engine task id (`<group>.<task>` inside a task group). */
export interface TaskAddress { dagId: string, taskId: string }

export interface TaskPlan {
  /** Tries (1-based) up to and including this number fail. */
  failTries: number
  hang: boolean
  skip: boolean
  deferMs: number | null
  durationMs: number
}

/** Parses `ENGINE_FAIL_TASKS` / `ENGINE_HANG_TASKS`; throws on a malformed entry so a typo is seen at start. */
export function parseRules (spec: string, what: string): EnvRule[] {
  return spec.split(',').map((s) => s.trim()).filter((s) => s !== '').map((entry) => {
    const match = /^(?:([\w.-]+)\/)?([\w.-]+)(?:=(\d+))?$/.exec(entry)
    if (match === null) throw new Error(`${what}: cannot read "${entry}" (expected [dag_id/]task_id[=N])`)
    return { dagId: match[1] ?? null, taskId: match[2]!, times: match[3] === undefined ? Number.POSITIVE_INFINITY : Number(match[3]) }
  })
}

/** A rule names a task by its engine id (`drydock_build.prepare_site`) or by its bare name (`prepare_site`). */
const taskKeys = (address: TaskAddress): string[] => {
  const name = taskName(address.taskId)
  return name === address.taskId ? [name] : [address.taskId, name]
}

function envMatch (rule: EnvRule, address: TaskAddress): boolean {
  if (!taskKeys(address).includes(rule.taskId)) return false
  return rule.dagId === null || rule.dagId === address.dagId
}

function confValue<T> (table: Record<string, T> | undefined, address: TaskAddress): T | undefined {
  if (table === undefined) return undefined
  for (const key of taskKeys(address)) if (Object.hasOwn(table, key)) return table[key]
  return undefined
}

export function planTask (address: TaskAddress, stub: StubConf | undefined, rules: InjectionRules, defaultMs: number): TaskPlan {
  let failTries = 0
  const fromConf = confValue(stub?.fail, address)
  if (fromConf !== undefined) failTries = fromConf === 'always' ? Number.POSITIVE_INFINITY : fromConf
  else for (const rule of rules.fail) if (envMatch(rule, address)) failTries = Math.max(failTries, rule.times)
  const keys = taskKeys(address)
  const taskMs = stub?.task_ms
  const durationMs = typeof taskMs === 'number' ? taskMs : (confValue(taskMs, address) ?? defaultMs)
  return {
    failTries,
    hang: (stub?.hang ?? []).some((k) => keys.includes(k)) || rules.hang.some((r) => envMatch(r, address)),
    skip: (stub?.skip ?? []).some((k) => keys.includes(k)),
    deferMs: confValue(stub?.defer_ms, address) ?? null,
    durationMs
  }
}

export function retriesOverride (address: TaskAddress, stub: StubConf | undefined): number | undefined {
  return confValue(stub?.retries, address)
}

export function mapCount (address: TaskAddress, stub: StubConf | undefined): number | undefined {
  return confValue(stub?.map, address)
}
