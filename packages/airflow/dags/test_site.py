"""test_site: test the releases of a deployed site (Shipyard's test_site workflow as an Airflow DAG)."""

from airflow.sdk import DAG

from slipway_tasks import DAG_SETTINGS, action_xcom, deployment_configuration, preflight, task

with DAG('test_site', description='Test the releases of a deployed site', **DAG_SETTINGS):
    xcom = action_xcom()
    checks = preflight()
    configuration = deployment_configuration()
    tests = task('armada_test_releases', 'ArmadaTestReleasesOperator', 'armada_test')

    xcom >> [checks, configuration]
    [configuration, checks] >> tests
