"""What a task of Slipway's site workflows does when Airflow runs it.

The site work itself lives in stub-site: a task asks it to execute the step (POST {SLIPWAY_SITE_URL}/_stub/steps/{step})
and copies the answer's log lines into the task log. Only the steps that need the engine stay here: the
simulated `log` steps, the concurrency check, the upgrade branch, and the task states create_action_tag reports.
Each run's `conf.stub` block injects failures, hangs, skips and durations, as stub-engine offers them.
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

# the steps stub-site executes (the others stay in the engine)
SITE_STEPS = frozenset({
    'preflight', 'rendered_doc', 'deckhand_validate', 'promenade_validate', 'verify_site', 'verify_nodes_exist',
    'deploy_nodes', 'destroy_nodes', 'relabel_nodes', 'create_action_tag', 'deployment_status'
})

# workflows that may not run side by side: dag_concurrency_check fails while another run of one of them is running
SITE_ACTION_DAGS = ('deploy_site', 'update_site', 'update_software', 'redeploy_server', 'relabel_nodes')

# tasks whose outcome decides the site-action tag create_action_tag writes
TAGGED_TASKS = ('armada_build.armada_get_releases', 'upgrade_airflow', 'skip_upgrade_airflow')

STUB_KEYS = frozenset({'fail', 'hang', 'skip', 'defer_ms', 'task_ms', 'retries', 'map', 'upgrade_airflow'})
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
    if not isinstance(stub.get('upgrade_airflow', False), bool):
        raise StubConfError('conf.stub.upgrade_airflow must be true or false')
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


def tagged_task_states(ti: Any) -> dict[str, str | None]:
    """The states, in this run, of the tasks that decide the site-action tag; null for a task this DAG lacks."""
    found = ti.get_task_states(dag_id=ti.dag_id, task_ids=list(TAGGED_TASKS), run_ids=[ti.run_id]).get(ti.run_id) or {}
    states = {}
    for task_id in TAGGED_TASKS:
        state = found.get(task_id)
        states[task_id] = None if state is None else str(getattr(state, 'value', state))
    return states


def upgrade_branch(stub: dict, log) -> str:
    """update_site and update_software upgrade Airflow only when the run's conf.stub.upgrade_airflow is true."""
    follow = 'upgrade_airflow' if stub.get('upgrade_airflow') is True else 'skip_upgrade_airflow'
    log.info(f'Following branch {follow}')
    return follow


def run_step(kind: str, context: Any, log, stopped: threading.Event) -> None:
    """One try of one task: injection first, then the work of its kind; the try lasts at least conf.stub.task_ms."""
    started = time.monotonic()
    ti = context['ti']
    conf = run_conf(context)
    stub = with_file_rules(read_stub(conf), ti.dag_id)
    plan = plan_task(stub, ti.task_id)
    inject(plan, ti.try_number, log, stopped)
    if kind == 'log':
        log.info(f'{ti.task_id}: simulated work (no component of this stack performs it)')
    elif kind == 'concurrency_check':
        conflicts = concurrency_conflicts(ti)
        if conflicts:
            raise AirflowException(f'Concurrency check failed: conflicting runs {", ".join(conflicts)}')
        log.info('Concurrency check passed: no conflicting site action is running')
    elif kind in SITE_STEPS:
        body = {'dag_id': ti.dag_id, 'task_id': ti.task_id, 'run_id': ti.run_id, 'try_number': ti.try_number, 'conf': conf}
        if kind == 'create_action_tag':
            body['task_states'] = tagged_task_states(ti)
        site_step(kind, body, log)
    else:
        raise AirflowException(f'Unknown step kind {kind!r}')
    left = (plan.duration_s or 0) - (time.monotonic() - started)
    if left > 0:
        time.sleep(left)


def choose_branch(context: Any, log, stopped: threading.Event) -> str:
    """The upgrade branch's try: injection applies to it as to any task."""
    started = time.monotonic()
    ti = context['ti']
    stub = with_file_rules(read_stub(run_conf(context)), ti.dag_id)
    plan = plan_task(stub, ti.task_id)
    inject(plan, ti.try_number, log, stopped)
    follow = upgrade_branch(stub, log)
    left = (plan.duration_s or 0) - (time.monotonic() - started)
    if left > 0:
        time.sleep(left)
    return follow


# ---- the call to stub-site --------------------------------------------------------------------------------------

LOG_LEVELS = ('info', 'warning', 'error')
# stub-site is a local service: environment proxies are not used, as the Node services do not use them either
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _action(conf: dict) -> dict:
    action = conf.get('action')
    return action if isinstance(action, dict) else {}


def _headers(conf: dict) -> dict[str, str]:
    headers = {'Content-Type': 'application/json', 'Accept': 'application/json'}
    token = os.environ.get('SLIPWAY_SITE_TOKEN', '')
    if token:
        headers['X-Auth-Token'] = token
    action = _action(conf)
    if isinstance(action.get('context_marker'), str):
        headers['X-Context-Marker'] = action['context_marker']
    if isinstance(action.get('user'), str):
        headers['X-End-User'] = action['user']
    return headers


def _error_message(error: urllib.error.HTTPError) -> str:
    """The message of Slipway's error body, else the start of whatever the answer held."""
    try:
        text = error.read().decode('utf-8', 'replace')
    except OSError:
        return error.reason or ''
    try:
        body = json.loads(text)
    except ValueError:
        return text[:300]
    if isinstance(body, dict) and isinstance(body.get('message'), str):
        return body['message']
    return text[:300]


def _read_answer(step: str, answer: Any) -> tuple[str, list[dict]]:
    if not isinstance(answer, dict) or answer.get('outcome') not in ('success', 'failed') or not isinstance(answer.get('log'), list):
        raise AirflowException(f'stub-site answered step {step} with an unexpected body: {str(answer)[:300]}')
    lines = [line for line in answer['log'] if isinstance(line, dict) and isinstance(line.get('event'), str)]
    return answer['outcome'], lines


def site_step(step: str, body: dict, log) -> None:
    """Asks stub-site to execute the step, copies its log lines into the task log, and fails the try when it failed."""
    base = os.environ.get('SLIPWAY_SITE_URL', '').strip()
    if base in ('', 'none'):
        log.warning(f'No site configured (SLIPWAY_SITE_URL empty or none): skipped step {step}')
        return
    url = f'{base.rstrip("/")}/_stub/steps/{step}'
    timeout = env_seconds('SLIPWAY_SITE_TIMEOUT_S', 60)
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=_headers(body['conf']), method='POST')
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:
        raise AirflowException(f'stub-site answered {error.code} to step {step}: {_error_message(error)}') from None
    except (urllib.error.URLError, OSError) as error:  # refused, unreachable, timed out
        reason = getattr(error, 'reason', error)
        raise AirflowException(f'stub-site at {base} did not answer step {step}: {reason}') from None
    except ValueError:
        raise AirflowException(f'stub-site answered step {step} with a body that is not JSON') from None
    outcome, lines = _read_answer(step, answer)
    for line in lines:
        level = line.get('level') if line.get('level') in LOG_LEVELS else 'info'
        getattr(log, level)(line['event'])
    if outcome == 'failed':
        errors = [line['event'] for line in lines if line.get('level') == 'error']
        raise AirflowException(errors[-1] if errors else f'Step {step} failed')
