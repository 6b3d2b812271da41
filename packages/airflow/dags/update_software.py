"""update_software: update the software of a deployed site (Shipyard's update_software workflow as an Airflow DAG)."""

from airflow.sdk import DAG

from slipway_tasks import (DAG_SETTINGS, action_xcom, armada_build, concurrency_check, deployment_configuration,
                           deployment_status, tag_and_status, upgrade_branch, validate_site_design)

with DAG('update_software', description='Update the software of a deployed site', **DAG_SETTINGS):
    xcom = action_xcom()
    concurrency = concurrency_check()
    configuration = deployment_configuration()
    validation = validate_site_design('deckhand', 'armada')
    status = deployment_status()
    armada = armada_build()
    decide, upgrade, skip = upgrade_branch()
    tag, final = tag_and_status()

    xcom >> configuration
    [concurrency, configuration] >> validation
    concurrency >> status
    validation >> armada >> decide
    [upgrade, skip] >> tag
