// The orchestrator's own engine client on an engine after the scenario: every read it makes (DAGs, one DAG, one run,
// the run lists, a run's task instances, the batch task-instance list, the changes since an instant, a try's log as
// text) and an idempotent re-trigger, reduced to what the orchestrator goes on. Both engines must give the same view;
// a difference here is one the orchestrator would feel.
// The client is not exported by the orchestrator's package, so it is taken from its source.
import { createEngineClient } from '@slipway/orchestrator/engine-client'
import type { Target } from './client.ts'
import { RETRIED, RUNS } from './scenario.ts'

export interface ClientView {
  view: Record<string, unknown>
  /** The rendered log of the retried task's failed try, for the reader of the test's output. */
  log: string
}

export async function clientView (target: Target, since: string): Promise<ClientView> {
  const engine = createEngineClient({ baseUrl: target.url, username: target.username, password: target.password, timeoutMs: 30_000 })
  type Keyed = <T extends Record<string, unknown>>(items: T[], key: (item: T) => string, value: (item: T) => unknown) =>
  Record<string, unknown>
  const byId: Keyed = (items, key, value) =>
    Object.fromEntries(items.map((item) => [key(item), value(item)]).sort(([a], [b]) => String(a).localeCompare(String(b))))
  const runIds = [RUNS.ok, RUNS.retry, RUNS.stop]
  const dags = await engine.dags()
  const dag = await engine.dag('test_site')
  const run = await engine.run('test_site', RUNS.ok)
  const missing = await engine.run('test_site', 'no-such-run')
  const runs = await engine.runs({ dagIds: ['test_site', 'deploy_site'], logicalDateGte: since })
  const tasks = await engine.tasks('deploy_site', RUNS.retry)
  const batch = await engine.tasksOfRuns({ runIds })
  const changed = await engine.changedSince(since)
  const again = await engine.trigger('test_site', RUNS.ok, {})
  const log = await engine.log('deploy_site', RUNS.retry, RETRIED, 1)
  const state = (item: { state?: unknown }): unknown => item.state
  const taskKey = (t: { dag_run_id: string, task_id: string }): string => `${t.dag_run_id}/${t.task_id}`
  return {
    log,
    view: {
      dags: byId(dags, (d) => d.dag_id, (d) => d.is_paused),
      dag: { dag_id: dag.dag_id, is_paused: dag.is_paused },
      run: run === undefined ? null : { dag_run_id: run.dag_run_id, state: run.state, conf: run.conf },
      missing: missing ?? null,
      runs: byId(runs.filter((r) => r.dag_run_id.startsWith('diff-')), (r) => r.dag_run_id, state),
      tasks: byId(tasks, (t) => t.task_id, (t) => [t.state, t.try_number]),
      batch: byId(batch, taskKey, state),
      changed: {
        runs: byId(changed.runs.filter((r) => runIds.includes(r.dag_run_id as typeof runIds[number])), (r) => r.dag_run_id, state),
        tasks: byId(changed.tasks.filter((t) => runIds.includes(t.dag_run_id as typeof runIds[number])), taskKey, state)
      },
      retrigger: { dag_run_id: again.dag_run_id, state: again.state },
      log: {
        // the try's error, as the orchestrator renders the log for an operator
        names_the_error: log.includes('Injected failure of try 1'),
        starts_with_the_source_group: log.startsWith('Log message source details')
      }
    }
  }
}
