"""redeploy_server: redeploy the action's target nodes (Shipyard's redeploy_server workflow as an Airflow DAG)."""

from airflow.sdk import DAG

from slipway_tasks import (DAG_SETTINGS, action_xcom, concurrency_check, deployment_configuration, drydock_build,
                           task, validate_site_design)

with DAG('redeploy_server', description='Redeploy target nodes', **DAG_SETTINGS):
    xcom = action_xcom()
    concurrency = concurrency_check()
    configuration = deployment_configuration()
    validation = validate_site_design('deckhand', 'drydock', 'promenade')
    destroy = task('destroy_nodes', 'DrydockDestroyNodeOperator', 'destroy_nodes')
    build = drydock_build()

    xcom >> configuration
    [concurrency, configuration] >> validation
    validation >> destroy >> build
