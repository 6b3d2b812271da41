// Airflow's settings on the production pages (docs/production/*.md) against the airflow.cfg Slipway runs Airflow with:
// each AIRFLOW__SECTION__KEY named is a key of that file, and where Slipway's value does not depend on the deployment
// (False, the auth manager's class) the page gives that value. Slipway's own settings on the same pages are held to
// the services' schemas by packages/stack/test/production-docs.test.ts.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { airflowConfig, type AirflowSettings } from '../src/settings.ts'

const PAGES_DIR = resolve(import.meta.dirname, '../../../docs/production')
const PAGES = readdirSync(PAGES_DIR).filter((name) => name.endsWith('.md')).sort()

const sample = (n: number): AirflowSettings => ({
  home: `/home/af${n}`,
  dagsFolder: `/dags${n}`,
  databaseUrl: `postgresql+psycopg2://a:b@db${n}:5432/airflow`,
  host: `10.0.0.${n}`,
  port: 8080 + n,
  username: 'slipway',
  password: `p${n}`,
  jwtSecret: `j${n}`,
  parallelism: n
})
const [ONE, TWO] = [airflowConfig(sample(1)), airflowConfig(sample(2))]

/** Slipway's value of `section.key` when it is the same for every deployment, else undefined. */
function fixedValue (section: string, key: string): string | undefined {
  const value = ONE[section]?.[key]
  return value !== undefined && value === TWO[section]?.[key] ? value : undefined
}

/** What is wrong with the Airflow settings named on a page, and how many it names. */
function airflowProblems (page: string, text: string): { problems: string[], named: number } {
  const problems: string[] = []
  let named = 0
  for (const line of text.split('\n')) {
    for (const match of line.matchAll(/`AIRFLOW__([A-Z0-9_]+?)__([A-Z0-9_]+)`/g)) {
      named++
      const [section, key] = [(match[1] ?? '').toLowerCase(), (match[2] ?? '').toLowerCase()]
      if (ONE[section]?.[key] === undefined) {
        problems.push(`${page}: ${match[0]} is no setting Slipway runs Airflow with ([${section}] ${key})`)
        continue
      }
      // a settings row: | `AIRFLOW__…` | Airflow | `value`… |
      const cells = line.startsWith('|') ? line.split('|').slice(1, -1).map((cell) => cell.trim()) : []
      const given = /^`([^`]*)`/.exec(cells[2] ?? '')?.[1]
      const fixed = fixedValue(section, key)
      if (cells.length > 0 && fixed !== undefined && given !== fixed) problems.push(`${page}: ${match[0]} is ${fixed} in Slipway's Airflow, the page says ${given ?? 'nothing'}`)
    }
  }
  return { problems, named }
}

describe('Airflow settings on the production pages', () => {
  it('are settings Slipway runs Airflow with, with its values where they are fixed', () => {
    let named = 0
    for (const page of PAGES) {
      const found = airflowProblems(page, readFileSync(join(PAGES_DIR, page), 'utf8'))
      expect(found.problems).toEqual([])
      named += found.named
    }
    expect(named).toBeGreaterThan(5)
  })

  it('finds a setting Slipway does not use and a fixed value written otherwise', () => {
    const page = [
      '| `AIRFLOW__CORE__DAG_FOLDER` | Airflow | x |',
      '| `AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION` | Airflow | `True` |',
      '| `AIRFLOW__CORE__LOAD_EXAMPLES` | Airflow | `False` |',
      '| `AIRFLOW__CORE__DAGS_FOLDER` | Airflow | anywhere |'
    ].join('\n')
    expect(airflowProblems('made-up.md', page)).toEqual({
      named: 4,
      problems: [
        'made-up.md: `AIRFLOW__CORE__DAG_FOLDER` is no setting Slipway runs Airflow with ([core] dag_folder)',
        'made-up.md: `AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION` is False in Slipway\'s Airflow, the page says True'
      ]
    })
  })
})
