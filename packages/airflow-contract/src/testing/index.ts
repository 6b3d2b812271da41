// @slipway/airflow-contract/testing: the Airflow OpenAPI documents in ../shared/contracts (read at run time,
// never copied into the project) as a checker of request and response bodies, and the generic checker itself.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'yaml'
import { openApiChecker, type OpenApiDocument } from './openapi-checker.ts'

export { openApiChecker, type Answer, type OpenApiDocument } from './openapi-checker.ts'

const CONTRACTS = resolve(import.meta.dirname, '../../../../../shared/contracts')
const REST_FILE = resolve(CONTRACTS, 'airflow-v2-rest-api.yaml')
const AUTH_FILE = resolve(CONTRACTS, 'airflow-simple-auth-manager.yaml')
/** Whether the documents are beside the repository (developers and CI); tests using them skip, visibly, otherwise. */
export const CONTRACTS_PRESENT = existsSync(REST_FILE) && existsSync(AUTH_FILE)
if (!CONTRACTS_PRESENT) console.warn(`Airflow contract tests SKIPPED: ${REST_FILE} or ${AUTH_FILE} is missing`)

/** The checker over Airflow's REST API and simple auth manager documents. */
export function contractChecker () {
  return openApiChecker([
    { id: 'rest', doc: parse(readFileSync(REST_FILE, 'utf8')) as OpenApiDocument },
    { id: 'auth', doc: parse(readFileSync(AUTH_FILE, 'utf8')) as OpenApiDocument }
  ])
}
