import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('the generated Airflow types', () => {
  it('name their source document and the command that regenerates them', () => {
    const head = readFileSync(new URL('../src/generated/airflow-v2.ts', import.meta.url), 'utf8').split('\n').slice(0, 4).join('\n')
    expect(head).toContain('shared/contracts/airflow-v2-rest-api.yaml')
    expect(head).toContain('npm run generate -w @slipway/airflow-contract')
  })
})
