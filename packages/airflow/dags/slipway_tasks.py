"""The building blocks of Slipway's six Airflow DAGs: their common settings, the task kinds, and the task groups
several workflows share (preflight, validate_site_design, drydock_build, armada_build, the upgrade branch and the
tagging tail). A task's class carries the name of the upstream Shipyard operator it stands for, so that the engine's
task instances name the same operator as stub-engine's do.
"""

from __future__ import annotations

import threading
import types
from datetime import timedelta

from airflow.providers.standard.operators.branch import BaseBranchOperator
from airflow.sdk import BaseOperator, TaskGroup

import slipway_steps as steps

# Shipyard waits 30 s between tries; Slipway's DAGs wait SLIPWAY_RETRY_DELAY_S (default 1 s) so tests stay quick
RETRY_DELAY = timedelta(seconds=steps.env_seconds('SLIPWAY_RETRY_DELAY_S', 1))

# Every workflow runs only when triggered, one run per trigger; conf is taken as given (no params declared).
# max_active_runs is Airflow's [core] max_active_runs_per_dag (16 unless configured), as stub-engine's
# ENGINE_MAX_ACTIVE_RUNS; whether a new DAG starts paused is Airflow's [core] dags_are_paused_at_creation.
DAG_SETTINGS = {
    'schedule': None,
    'catchup': False,
    'default_args': {'retries': 0, 'retry_delay': RETRY_DELAY},
    'tags': ['slipway'],
}


class Stoppable:
    """A try Airflow can tell to stop: on_kill (run on SIGTERM) ends an injected hang."""

    def _stop_event(self) -> threading.Event:
        # made per try, when it starts: an Event cannot be deep-copied with the task
        self._stopped = threading.Event()
        return self._stopped

    def on_kill(self) -> None:
        stopped = getattr(self, '_stopped', None)
        if stopped is not None:
            stopped.set()


class SiteTask(Stoppable, BaseOperator):
    """A workflow task: failure injection, then its kind's work (a step of the step library, or an engine-only step)."""

    ui_color = '#e8f0fe'

    def __init__(self, *, kind: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.kind = kind

    def execute(self, context):
        # what the step hands on becomes the task's XCom return value, read by the later steps of the run
        return steps.run_step(self.kind, context, self.log, self._stop_event())


class UpgradeBranch(Stoppable, BaseBranchOperator):
    """decide_airflow_upgrade: follows upgrade_airflow or skip_upgrade_airflow, the other is skipped."""

    def choose_branch(self, context) -> str:
        return steps.choose_branch(context, self.log, self._stop_event())


_NAMED: dict[str, type] = {}


def _named(base: type, operator: str) -> type:
    """A subclass of base named after the upstream operator (one class per name)."""
    if operator not in _NAMED:
        _NAMED[operator] = types.new_class(operator, (base,), exec_body=lambda ns: ns.update({'__module__': __name__}))
    return _NAMED[operator]


def task(task_id: str, operator: str, kind: str, retries: int = 0, trigger_rule: str = 'all_success') -> BaseOperator:
    return _named(SiteTask, operator)(task_id=task_id, kind=kind, retries=retries, trigger_rule=trigger_rule)


# ---- single tasks several workflows share ------------------------------------------------------------------------

def action_xcom() -> BaseOperator:
    return task('action_xcom', 'PythonOperator', 'log')


def concurrency_check() -> BaseOperator:
    return task('dag_concurrency_check', 'ConcurrencyCheckOperator', 'concurrency_check')


def deployment_configuration() -> BaseOperator:
    return task('deployment_configuration', 'DeploymentConfigurationOperator', 'deployment_configuration')


def get_rendered_doc() -> BaseOperator:
    return task('get_rendered_doc', 'DeckhandRetrieveRenderedDocOperator', 'rendered_doc')


def deployment_status() -> BaseOperator:
    return task('deployment_status', 'DeploymentStatusOperator', 'deployment_status')


# ---- task groups --------------------------------------------------------------------------------------------------

def preflight() -> TaskGroup:
    with TaskGroup('preflight') as group:
        task('ucp_preflight_check', 'UcpHealthCheckOperator', 'preflight')
    return group


# each validator retries once, as upstream's validation operators do
VALIDATORS = {
    'deckhand': ('deckhand_validate_site_design', 'DeckhandValidateSiteDesignOperator', 'deckhand_validate'),
    'drydock': ('drydock_validate_site_design', 'DrydockValidateDesignOperator', 'drydock_validate'),
    'promenade': ('promenade_validate_site_design', 'PromenadeValidateSiteDesignOperator', 'promenade_validate'),
    'armada': ('armada_validate_site_design', 'ArmadaValidateDesignOperator', 'armada_validate'),
}


def validate_site_design(*which: str) -> TaskGroup:
    """The named validators side by side."""
    with TaskGroup('validate_site_design') as group:
        for name in which:
            task(*VALIDATORS[name], retries=1)
    return group


def drydock_build(verify_nodes_exist: bool = False) -> TaskGroup:
    """verify_site -> prepare_site [-> verify_nodes_exist] -> prepare_and_deploy_nodes; update_site's
    verify_nodes_exist is defined first in the group, as upstream's update_site defines it."""
    with TaskGroup('drydock_build') as group:
        exists = task('verify_nodes_exist', 'DrydockVerifyNodesExistOperator', 'verify_nodes_exist') if verify_nodes_exist else None
        verify = task('verify_site', 'DrydockVerifySiteOperator', 'verify_site')
        prepare = task('prepare_site', 'DrydockPrepareSiteOperator', 'prepare_site')
        deploy = task('prepare_and_deploy_nodes', 'DrydockNodesOperator', 'deploy_nodes')
        verify >> prepare
        if exists is None:
            prepare >> deploy
        else:
            prepare >> exists >> deploy
    return group


def armada_build() -> TaskGroup:
    """armada_post_apply (5 retries) -> armada_get_releases."""
    with TaskGroup('armada_build') as group:
        task('armada_post_apply', 'ArmadaPostApplyOperator', 'armada_apply', retries=5) >> task('armada_get_releases', 'ArmadaGetReleasesOperator', 'armada_releases')
    return group


def upgrade_branch() -> tuple[BaseOperator, BaseOperator, BaseOperator]:
    """decide_airflow_upgrade and the two tasks it chooses between."""
    decide = _named(UpgradeBranch, 'BranchPythonOperator')(task_id='decide_airflow_upgrade')
    upgrade = task('upgrade_airflow', 'BashOperator', 'log')
    skip = task('skip_upgrade_airflow', 'BashOperator', 'log')
    decide >> [upgrade, skip]
    return decide, upgrade, skip


def tag_and_status() -> tuple[BaseOperator, BaseOperator]:
    """The tail that tags the revision and writes the final status: both run whatever ended before them."""
    tag = task('create_action_tag', 'DeckhandCreateSiteActionTagOperator', 'create_action_tag', trigger_rule='all_done')
    final = task('final_deployment_status', 'DeploymentStatusOperator', 'deployment_status', trigger_rule='all_done')
    tag >> final
    return tag, final
