// `npm run chart-schema -w @slipway/kubernetes`: rewrites the setting definitions of charts/slipway/values.schema.json
// from the services' configuration schemas (after a setting is added, renamed or changed).
import { writeFileSync } from 'node:fs'
import { valuesSchemaText, VALUES_SCHEMA_FILE } from './chart-schema.ts'

writeFileSync(VALUES_SCHEMA_FILE, valuesSchemaText())
console.log(`written: ${VALUES_SCHEMA_FILE}`)
