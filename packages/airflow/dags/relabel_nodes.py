"""relabel_nodes: relabel the action's target nodes (Shipyard's relabel_nodes workflow as an Airflow DAG)."""

from airflow.sdk import DAG

from slipway_tasks import (DAG_SETTINGS, action_xcom, concurrency_check, deployment_configuration, get_rendered_doc,
                           preflight, task, validate_site_design)

with DAG('relabel_nodes', description='Relabel target nodes', **DAG_SETTINGS):
    xcom = action_xcom()
    concurrency = concurrency_check()
    checks = preflight()
    rendered = get_rendered_doc()
    configuration = deployment_configuration()
    validation = validate_site_design('deckhand', 'drydock', 'promenade', 'armada')
    relabel = task('relabel_nodes', 'DrydockRelabelNodesOperator', 'relabel_nodes')

    xcom >> concurrency >> checks >> rendered >> configuration >> validation >> relabel
