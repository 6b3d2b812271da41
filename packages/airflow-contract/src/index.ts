// @slipway/airflow-contract: the Airflow REST API v2 as both sides of the engine boundary read it — the types
// generated from the document, and the runtime schemas of the shapes the stand-in serves.
export type { components, operations, paths } from './generated/airflow-v2.ts'
import type { components } from './generated/airflow-v2.ts'

/** The document's named schemas (`AirflowSchemas['DAGRunResponse']`). */
export type AirflowSchemas = components['schemas']
export * from './schemas.ts'
export * from './workflows.ts'
