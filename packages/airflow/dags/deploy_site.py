"""deploy_site: deploy a site (Shipyard's deploy_site workflow as an Airflow DAG)."""

from airflow.sdk import DAG

from slipway_tasks import (DAG_SETTINGS, action_xcom, armada_build, concurrency_check, deployment_configuration,
                           deployment_status, drydock_build, get_rendered_doc, preflight, tag_and_status,
                           validate_site_design)

with DAG('deploy_site', description='Deploy a site', **DAG_SETTINGS):
    xcom = action_xcom()
    concurrency = concurrency_check()
    checks = preflight()
    rendered = get_rendered_doc()
    configuration = deployment_configuration()
    validation = validate_site_design('deckhand', 'drydock', 'promenade', 'armada')
    status = deployment_status()
    build = drydock_build()
    armada = armada_build()
    tag, final = tag_and_status()

    xcom >> [checks, configuration]
    configuration >> rendered
    [checks, rendered, concurrency, configuration] >> validation
    [rendered, concurrency] >> status
    validation >> build >> armada >> tag
