// Writes src/generated/airflow-v2.ts from ../shared/contracts/airflow-v2-rest-api.yaml with openapi-typescript;
// `--check` regenerates in memory and fails when the committed file differs. Without the document beside the
// repository there is nothing to compare: it says so and succeeds.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'

const SOURCE = resolve(import.meta.dirname, '../../../../shared/contracts/airflow-v2-rest-api.yaml')
const TARGET = resolve(import.meta.dirname, '../src/generated/airflow-v2.ts')
const HEADER = [
  '// GENERATED FILE, do not edit: the Airflow REST API v2 types.',
  '// Source: shared/contracts/airflow-v2-rest-api.yaml (apache/airflow, provenance in shared/contracts/README.md).',
  '// Command: npm run generate -w @slipway/airflow-contract (openapi-typescript); `npm run check` compares.',
  '/* eslint-disable */',
  ''
].join('\n')

const check = process.argv.includes('--check')
if (!existsSync(SOURCE)) {
  console.log(`airflow-contract: SKIPPED, ${SOURCE} is absent (nothing to compare the generated types with)`)
  process.exit(0)
}
// a field with a default may be left out of a request: optional, as the server fills it in
const text = HEADER + astToString(await openapiTS(readFileSync(SOURCE, 'utf8'), { defaultNonNullable: false }))
if (!check) {
  writeFileSync(TARGET, text)
  console.log(`airflow-contract: wrote ${TARGET}`)
} else if (!existsSync(TARGET) || readFileSync(TARGET, 'utf8') !== text) {
  console.error(`airflow-contract: ${TARGET} differs from what ${SOURCE} generates; run npm run generate -w @slipway/airflow-contract`)
  process.exit(1)
} else {
  console.log('airflow-contract: generated types match the document')
}
