export {
  AIRFLOW_PROCESSES, AirflowUnavailableError, DEFAULT_VERSION, PACKAGE_ROOT, SITE_DAGS, installAirflow, sqlAlchemyUrl, startAirflow
} from './airflow.ts'
export type { Airflow, AirflowMemory, AirflowOptions, AirflowProcess } from './airflow.ts'
export { fetchToken } from './ready.ts'
