"""What a task of Slipway's site workflows does when Airflow runs it.

The site work of a task (Deckhand, Drydock, Armada, Promenade and Kubernetes, over each one's own protocol) is done
by Slipway's step library; the task asks the step runner to run its step (POST {SLIPWAY_STEPS_URL}/api/v1.0/step-runs),
polls it for its state and log lines, copies the lines into the task log, hands its output on as the task's XCom
return value, and tells the runner to stop the step when Airflow stops the task. Only what needs the engine stays
here: the concurrency check, the task states and XComs a step is handed, and `conf.stub` injection (failures, hangs,
skips and durations, as stub-engine offers them).
Standard library only (urllib), besides Airflow itself.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from airflow.sdk.exceptions import AirflowException

try:  # the Task SDK's own exception (Airflow 3.2 and later); the core one before
    from airflow.sdk.exceptions import AirflowSkipException
except ImportError:  # pragma: no cover - Airflow 3.0 / 3.1
    from airflow.exceptions import AirflowSkipException

# the kinds the step library runs (the others stay in the engine)
SITE_STEPS = frozenset({
    'preflight', 'rendered_doc', 'deployment_configuration', 'deckhand_validate', 'drydock_validate',
    'promenade_validate', 'armada_validate', 'verify_site', 'prepare_site', 'verify_nodes_exist', 'deploy_nodes',
    'destroy_nodes', 'relabel_nodes', 'armada_apply', 'armada_releases', 'armada_test', 'decide_upgrade',
    'create_action_tag', 'deployment_status'
})

# the tasks whose return values later steps read (the deployment configuration, the preflight's Drydock verdict, the
# apply's upgrade verdict): pulled from XCom and handed to every step
HANDED_ON = ('deployment_configuration', 'preflight.ucp_preflight_check', 'armada_build.armada_post_apply')

# Slipway's workflow catalog, beside this file in the DAG folder: the same document the orchestrator, stub-engine and
# the step library read their workflow facts from
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'slipway_workflows.json'), encoding='utf-8') as catalog:
    WORKFLOWS: dict[str, Any] = json.load(catalog)['workflows']

# workflows that may not run side by side: dag_concurrency_check fails while another run of one of them is running
SITE_ACTION_DAGS = tuple(dag_id for dag_id, facts in WORKFLOWS.items() if facts['exclusive'])

STUB_KEYS = frozenset({'fail', 'hang', 'skip', 'defer_ms', 'task_ms', 'retries', 'map'})
MAX_MS = 3_600_000
INJECT_FILE_VARIABLE = 'SLIPWAY_INJECT_FILE'
HANG_POLL_S = 1.0


def env_seconds(name: str, default: float) -> float:
    """A duration in seconds from the environment; a bad value is an error naming the variable."""
    raw = os.environ.get(name, '').strip()
    if raw == '':
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f'{name} must be a number of seconds, got {raw!r}') from None
    if not 0 < value < math.inf:
        raise ValueError(f'{name} must be a positive number of seconds, got {raw!r}')
    return value


class StubConfError(AirflowException):
    """The run's conf.stub block cannot be read: every task of the run fails with the reason."""


@dataclass(frozen=True)
class Plan:
    """What failure injection asks of one try of one task."""

    fail_tries: float  # tries 1..fail_tries fail; math.inf: every try
    hang: bool
    skip: bool
    duration_s: float | None  # the try lasts at least this long


def task_keys(task_id: str) -> list[str]:
    """An injection rule names a task by its engine task id (`drydock_build.prepare_site`) or its bare name."""
    name = task_id.rsplit('.', 1)[-1]
    return [name] if name == task_id else [task_id, name]


def _is_ms(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_MS


def _check_table(stub: dict, key: str, valid, what: str) -> None:
    table = stub.get(key)
    if table is None:
        return
    if not isinstance(table, dict):
        raise StubConfError(f'conf.stub.{key} must be an object keyed by task, got {type(table).__name__}')
    for task, value in table.items():
        if not valid(value):
            raise StubConfError(f'conf.stub.{key}.{task} must be {what}, got {value!r}')


def _check_list(stub: dict, key: str) -> None:
    names = stub.get(key)
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise StubConfError(f'conf.stub.{key} must be a list of task names, got {names!r}')


def read_stub(conf: dict) -> dict:
    """The run's conf.stub block, checked as strictly as stub-engine checks it when a run is triggered."""
    stub = conf.get('stub')
    if stub is None:
        return {}
    if not isinstance(stub, dict):
        raise StubConfError(f'conf.stub must be an object, got {type(stub).__name__}')
    unknown = sorted(set(stub) - STUB_KEYS)
    if unknown:
        raise StubConfError(f'conf.stub has unknown keys: {", ".join(unknown)}')
    count = (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0)
    _check_table(stub, 'fail', lambda v: v == 'always' or count(v), 'a number of tries or "always"')
    _check_table(stub, 'defer_ms', _is_ms, f'milliseconds (0..{MAX_MS})')
    _check_table(stub, 'retries', lambda v: count(v) and v <= 20, 'a number of retries (0..20)')
    _check_table(stub, 'map', lambda v: count(v) and v <= 64, 'a number of copies (0..64)')
    if not _is_ms(stub.get('task_ms', 0)):
        _check_table(stub, 'task_ms', _is_ms, f'milliseconds (0..{MAX_MS})')
    _check_list(stub, 'hang')
    _check_list(stub, 'skip')
    return stub


def _file_rules(spec: Any, dag_id: str, what: str) -> dict[str, float]:
    """`[dag_id/]task[=N],…` (stub-engine's ENGINE_FAIL_TASKS syntax): the rules of this DAG, task -> tries (inf: all)."""
    rules: dict[str, float] = {}
    if not isinstance(spec, str):
        raise StubConfError(f'{INJECT_FILE_VARIABLE}: {what} must be a string of [dag_id/]task[=N] entries')
    for entry in (e.strip() for e in spec.split(',')):
        if entry == '':
            continue
        match = re.fullmatch(r'(?:([\w.-]+)/)?([\w.-]+)(?:=(\d+))?', entry)
        if match is None:
            raise StubConfError(f'{INJECT_FILE_VARIABLE}: cannot read {what} entry {entry!r} (expected [dag_id/]task[=N])')
        if match.group(1) in (None, dag_id):
            rules[match.group(2)] = math.inf if match.group(3) is None else int(match.group(3))
    return rules


def with_file_rules(stub: dict, dag_id: str) -> dict:
    """The run's conf.stub, plus the failures and hangs of the injection file (SLIPWAY_INJECT_FILE) for this DAG.

    The file lets a test make a step fail or hang in runs the orchestrator triggers (whose conf it does not write),
    as ENGINE_FAIL_TASKS and ENGINE_HANG_TASKS do for stub-engine; it is read when each try starts, so it may change
    between runs. What conf.stub says of a task wins.
    """
    path = os.environ.get(INJECT_FILE_VARIABLE, '')
    if path == '' or not os.path.exists(path):
        return stub
    with open(path, encoding='utf-8') as handle:
        rules = json.load(handle)
    if not isinstance(rules, dict):
        raise StubConfError(f'{INJECT_FILE_VARIABLE}: {path} must hold a JSON object {{"fail": …, "hang": …}}')
    fail = {t: ('always' if n == math.inf else n) for t, n in _file_rules(rules.get('fail', ''), dag_id, 'fail').items()}
    hang = list(_file_rules(rules.get('hang', ''), dag_id, 'hang'))
    merged = dict(stub)
    merged['fail'] = {**fail, **(stub.get('fail') or {})}
    merged['hang'] = [*hang, *(stub.get('hang') or [])]
    return merged


def _lookup(table: Any, task_id: str) -> Any:
    if not isinstance(table, dict):
        return None
    return next((table[k] for k in task_keys(task_id) if k in table), None)


def plan_task(stub: dict, task_id: str) -> Plan:
    keys = task_keys(task_id)
    fail = _lookup(stub.get('fail'), task_id)
    task_ms = stub.get('task_ms')
    ms = task_ms if isinstance(task_ms, int) else _lookup(task_ms, task_id)
    return Plan(
        fail_tries=math.inf if fail == 'always' else (fail or 0),
        hang=any(k in stub.get('hang', []) for k in keys),
        skip=any(k in stub.get('skip', []) for k in keys),
        duration_s=None if ms is None else ms / 1000
    )


def run_conf(context: Any) -> dict:
    conf = getattr(context['dag_run'], 'conf', None)
    return conf if isinstance(conf, dict) else {}


def inject(plan: Plan, try_number: int, log, stopped: threading.Event) -> None:
    """Hangs, fails or skips this try as the run's conf.stub asks; returns when the task should do its work."""
    if plan.hang:
        log.warning('Injected hang: the task runs until it is stopped')
        # Airflow stops a try with SIGTERM (the task's on_kill sets `stopped`), then kills it if it lingers
        while not stopped.is_set():
            time.sleep(HANG_POLL_S)
        raise AirflowException('Injected hang ended: the task was told to stop')
    if try_number <= plan.fail_tries:
        time.sleep(plan.duration_s or 0)
        raise AirflowException(f'Injected failure of try {try_number}')
    if plan.skip:
        time.sleep(plan.duration_s or 0)
        raise AirflowSkipException('Injected skip')


def concurrency_conflicts(ti: Any) -> list[str]:
    """Other running runs of the site-action workflows, counted through the Task SDK (this run is one of its DAG's)."""
    conflicts = []
    for dag_id in SITE_ACTION_DAGS:
        running = ti.get_dr_count(dag_id=dag_id, states=['running'])
        others = running - 1 if dag_id == ti.dag_id else running
        if others > 0:
            conflicts.append(f'{dag_id} ({others} running)')
    return conflicts


def run_task_states(ti: Any) -> dict[str, str | None]:
    """The state of every task of this run, by task id (null: not run yet), read through the Task SDK."""
    task_ids = list(ti.task.dag.task_ids)
    found = ti.get_task_states(dag_id=ti.dag_id, task_ids=task_ids, run_ids=[ti.run_id]).get(ti.run_id) or {}
    states = {}
    for task_id in task_ids:
        state = found.get(task_id)
        states[task_id] = None if state is None else str(getattr(state, 'value', state))
    return states


def handed_on(ti: Any) -> dict[str, Any]:
    """What earlier tasks of this run returned, for the tasks whose values the steps read."""
    present = set(ti.task.dag.task_ids)
    values = {}
    for task_id in HANDED_ON:
        if task_id in present and task_id != ti.task_id:
            value = ti.xcom_pull(task_ids=task_id)
            if value is not None:
                values[task_id] = value
    return values


def run_step(kind: str, context: Any, log, stopped: threading.Event) -> Any:
    """One try of one task: injection first, then the work of its kind; the try lasts at least conf.stub.task_ms.
    Answers what the step hands on (the task's XCom return value)."""
    started = time.monotonic()
    ti = context['ti']
    conf = run_conf(context)
    stub = with_file_rules(read_stub(conf), ti.dag_id)
    plan = plan_task(stub, ti.task_id)
    inject(plan, ti.try_number, log, stopped)
    output = None
    if kind == 'log':
        log.info(f'{ti.task_id}: nothing to do beyond this line (a placeholder of upstream\'s workflow)')
    elif kind == 'concurrency_check':
        conflicts = concurrency_conflicts(ti)
        if conflicts:
            raise AirflowException(f'Concurrency check failed: conflicting runs {", ".join(conflicts)}')
        log.info('Concurrency check passed: no conflicting site action is running')
    elif kind in SITE_STEPS:
        output = site_step(kind, ti, conf, log, stopped).get('output')
    else:
        raise AirflowException(f'Unknown step kind {kind!r}')
    left = (plan.duration_s or 0) - (time.monotonic() - started)
    if left > 0:
        time.sleep(left)
    return output


def choose_branch(context: Any, log, stopped: threading.Event) -> str:
    """The upgrade branch's try: injection applies to it as to any task; the step library decides the branch."""
    started = time.monotonic()
    ti = context['ti']
    conf = run_conf(context)
    stub = with_file_rules(read_stub(conf), ti.dag_id)
    plan = plan_task(stub, ti.task_id)
    inject(plan, ti.try_number, log, stopped)
    follow = (site_step('decide_upgrade', ti, conf, log, stopped).get('follow') or ['skip_upgrade_airflow'])[0]
    left = (plan.duration_s or 0) - (time.monotonic() - started)
    if left > 0:
        time.sleep(left)
    return follow


# ---- the step runner -------------------------------------------------------------------------------------------

LOG_LEVELS = ('info', 'warning', 'error')
# the runner is a local service: environment proxies are not used, as the Node services do not use them either
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
# consecutive failed reads of a running step before the try gives up on the runner
MAX_READ_FAILURES = 5


def _error_message(error: urllib.error.HTTPError) -> str:
    """The message and reason of Slipway's error body, else the start of whatever the answer held."""
    try:
        text = error.read().decode('utf-8', 'replace')
    except OSError:
        return error.reason or ''
    try:
        body = json.loads(text)
    except ValueError:
        return text[:300]
    if isinstance(body, dict) and isinstance(body.get('message'), str):
        reason = body.get('reason')
        return body['message'] + (f': {reason}' if isinstance(reason, str) and reason else '')
    return text[:300]


def _call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    """One call of the runner; its HTTP errors and transport failures are AirflowExceptions naming it."""
    headers = {'Accept': 'application/json'}
    data = None
    if body is not None:
        headers['Content-Type'] = 'application/json'
        data = json.dumps(body).encode()
    token = os.environ.get('SLIPWAY_STEPS_TOKEN', '')
    if token:
        headers['X-Auth-Token'] = token
    request = urllib.request.Request(f'{base}{path}', data=data, headers=headers, method=method)
    timeout = env_seconds('SLIPWAY_STEPS_TIMEOUT_S', 30)
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise AirflowException(f'The step runner answered {error.code} to {method} {path}: {_error_message(error)}') from None
    except (urllib.error.URLError, OSError) as error:  # refused, unreachable, timed out
        reason = getattr(error, 'reason', error)
        raise AirflowException(f'The step runner at {base} did not answer {method} {path}: {reason}') from None
    except ValueError:
        raise AirflowException(f'The step runner answered {method} {path} with a body that is not JSON') from None


def site_step(kind: str, ti: Any, conf: dict, log, stopped: threading.Event) -> dict:
    """Runs the step through the step runner: started, polled for its log lines until it ends (stopped when Airflow
    stops the task), failing the try with the step's error. Answers the ended run (its `output`, its `follow`)."""
    base = os.environ.get('SLIPWAY_STEPS_URL', '').strip().rstrip('/')
    if base in ('', 'none'):
        log.warning(f'No peers configured (SLIPWAY_STEPS_URL empty or none): skipped the site work of {ti.task_id}')
        return {}
    body = {'kind': kind, 'dag_id': ti.dag_id, 'task_id': ti.task_id, 'run_id': ti.run_id, 'try_number': ti.try_number,
            'conf': conf, 'task_states': run_task_states(ti), 'xcom': handed_on(ti)}
    run_id = _call(base, 'POST', '/api/v1.0/step-runs', body)['id']
    poll = env_seconds('SLIPWAY_STEPS_POLL_S', 0.5)
    since, failures, stop_sent = 0, 0, False
    while True:
        if stopped.is_set() and not stop_sent:
            _call(base, 'POST', f'/api/v1.0/step-runs/{run_id}/stop')
            stop_sent = True
        try:
            view = _call(base, 'GET', f'/api/v1.0/step-runs/{run_id}?since={since}')
            failures = 0
        except AirflowException:
            failures += 1
            if failures >= MAX_READ_FAILURES:
                raise
            time.sleep(poll)
            continue
        for line in view.get('log') or []:
            if isinstance(line, dict) and isinstance(line.get('event'), str):
                level = line.get('level') if line.get('level') in LOG_LEVELS else 'info'
                getattr(log, level)(line['event'])
        since = view.get('next', since)
        if view.get('state') != 'running':
            break
        time.sleep(poll)
    if view.get('state') == 'failed':
        raise AirflowException(view.get('error') or f'The step {kind} failed')
    return view
