// What the engine client reads of Airflow's answers: the contract's shapes (generated from its document), read
// tolerantly — a state or run type a newer Airflow adds is a string like the others, and fields it adds are kept
// without being required: Airflow adds enum values and fields between releases, and a client that failed on them
// would break on the next upgrade.
import type { AirflowSchemas } from '@slipway/airflow-contract'

/** A string-literal union (an enum of the contract) widened to any string; other types as they are. */
type Loosen<T> = T extends string ? string : T

/** The contract's object `T`, its enums widened to strings, open to fields it does not name. */
export type Tolerant<T> = { [K in keyof T]: Loosen<T[K]> } & { [field: string]: unknown }

/** A DAG run (DAGRunResponse). */
export type EngineRun = Tolerant<AirflowSchemas['DAGRunResponse']>
/** A task instance (TaskInstanceResponse). */
export type EngineTask = Tolerant<AirflowSchemas['TaskInstanceResponse']>
/** A DAG (DAGResponse). */
export type EngineDag = Tolerant<AirflowSchemas['DAGResponse']>
