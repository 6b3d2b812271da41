"""Loads Slipway's DAG folder into an Airflow DagBag and prints what the shape test compares, as one JSON object:
the import errors, and for every DAG its settings and its tasks in definition order (task id, group, operator,
upstream task ids, trigger rule, retries, retry delay).

Run with the Python of a virtual environment holding Airflow:  python dag-shape.py <dags folder> <output file>
(the JSON goes to a file: Airflow logs on standard output while it loads)
"""

from __future__ import annotations

import json
import os
import sys


def shape(dags_folder: str) -> dict:
    try:  # Airflow 3.2 moved the DagBag
        from airflow.dag_processing.dagbag import DagBag
    except ImportError:
        from airflow.models.dagbag import DagBag
    from airflow import __version__

    # examples stay out through AIRFLOW__CORE__LOAD_EXAMPLES=false (3.3 no longer takes include_examples)
    # Airflow's DAG processor and task runner put the bundle's folder on sys.path, so the DAG files import the
    # shared modules beside them; a bare DagBag does not
    if dags_folder not in sys.path:
        sys.path.append(dags_folder)
    bag = DagBag(dag_folder=dags_folder, safe_mode=True)
    dags = []
    for dag_id in sorted(bag.dag_ids):
        dag = bag.dags[dag_id]  # get_dag would read the database
        dags.append({
            'dag_id': dag.dag_id,
            'description': dag.description,
            'schedule': dag.schedule,
            'catchup': dag.catchup,
            'max_active_runs': dag.max_active_runs,
            'params': dict(dag.params),
            'tags': sorted(dag.tags),
            'fileloc': os.path.basename(dag.fileloc),
            'tasks': [{
                'task_id': t.task_id,
                'group': t.task_group.group_id if t.task_group is not None else None,
                'operator': t.task_type,
                'upstream': sorted(t.upstream_task_ids),
                'trigger_rule': str(getattr(t.trigger_rule, 'value', t.trigger_rule)),
                'retries': t.retries,
                'retry_delay_s': t.retry_delay.total_seconds(),
            } for t in dag.tasks],
        })
    return {'airflow_version': __version__, 'import_errors': bag.import_errors, 'dags': dags}


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: dag-shape.py <dags folder> <output file>')
    with open(sys.argv[2], 'w', encoding='utf-8') as out:
        json.dump(shape(sys.argv[1]), out, default=str)
