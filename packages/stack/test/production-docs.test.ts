// The production pages (docs/production/) against the code: every setting they name is one a configuration schema
// knows — in a settings table, one of the process it is set on —, so a misspelt or removed setting fails here; their
// links lead to files and headings that exist; the index lists every page, and the README leads to them and to the
// backups. Airflow's own settings (AIRFLOW__…) are held to the settings Slipway runs Airflow with by
// packages/airflow/test/production-page.test.ts.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigSchema as OrchestratorConfig } from '@slipway/orchestrator'
import { ConfigSchema as BootstrapConfig } from '@slipway/bootstrap'
import { RunnerConfigSchema } from '@slipway/steps'

const ROOT = resolve(import.meta.dirname, '../../..')
const PAGES_DIR = join(ROOT, 'docs/production')
const PAGES = readdirSync(PAGES_DIR).filter((name) => name.endsWith('.md')).sort()

/** The variables the DAG files read in the Airflow task processes, as the Python reads them. */
function dagVariables (): string[] {
  const dags = join(ROOT, 'packages/airflow/dags')
  const text = readdirSync(dags).filter((name) => name.endsWith('.py')).map((name) => readFileSync(join(dags, name), 'utf8')).join('\n')
  return [...text.matchAll(/(?:environ\.get|env_seconds)\(\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1] ?? '')
}

/**
 * The names each process on the pages knows. The shipyard CLI is Airship's client, not in this repository: its
 * environment variables are its command's options (OS_AUTH_URL … OS_PROJECT_DOMAIN_NAME).
 */
const KNOWN: Record<string, Set<string>> = {
  orchestrator: new Set(Object.keys(OrchestratorConfig.properties)),
  bootstrap: new Set(Object.keys(BootstrapConfig.properties)),
  'step runner': new Set(Object.keys(RunnerConfigSchema.properties)),
  'Airflow tasks': new Set(dagVariables()),
  'shipyard CLI': new Set(['OS_AUTH_URL', 'OS_USERNAME', 'OS_PASSWORD', 'OS_PROJECT_NAME', 'OS_USER_DOMAIN_NAME', 'OS_PROJECT_DOMAIN_NAME'])
}
/** Node's own variable for a CA of the site's, which the pages name beside the services' settings. */
const NODE_VARIABLES = new Set(['NODE_EXTRA_CA_CERTS'])
const isAirflowSetting = (name: string): boolean => /^AIRFLOW__[A-Z0-9_]+__[A-Z0-9_]+$/.test(name)

/** What is wrong with the settings a page names: unknown names, and table rows naming a process that lacks one. */
function settingProblems (page: string, text: string): { problems: string[], rows: number } {
  const problems: string[] = []
  let rows = 0
  const anywhere = new Set([...Object.values(KNOWN).flatMap((names) => [...names]), ...NODE_VARIABLES])
  for (const match of text.matchAll(/`([A-Z][A-Z0-9_]+)(?:=[^`]*)?`/g)) {
    const name = match[1] ?? ''
    if (!anywhere.has(name) && !isAirflowSetting(name)) problems.push(`${page}: \`${name}\` is no setting of any process`)
  }
  // tables whose header is `| setting | set on | …`: each row's setting, on each process named
  let inTable = false
  for (const line of text.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim())
    if (!line.startsWith('|')) { inTable = false; continue }
    if (cells[0] === 'setting' && cells[1] === 'set on') { inTable = true; continue }
    if (!inTable || /^-+$/.test(cells[0] ?? '')) continue
    rows++
    const name = /^`([A-Z][A-Z0-9_]+)`$/.exec(cells[0] ?? '')?.[1]
    if (name === undefined) { problems.push(`${page}: a settings row without one setting name: ${line}`); continue }
    for (const process of (cells[1] ?? '').split(',').map((p) => p.trim())) {
      if (process === 'Airflow') {
        if (!isAirflowSetting(name)) problems.push(`${page}: \`${name}\` is set on Airflow but is no AIRFLOW__SECTION__KEY`)
        continue
      }
      const known = KNOWN[process]
      if (known === undefined) problems.push(`${page}: \`${name}\` is set on "${process}", which is no process of the pages`)
      else if (!known.has(name)) problems.push(`${page}: \`${name}\` is no setting of the ${process}`)
    }
  }
  return { problems, rows }
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')
const anchorsIn = (text: string): Set<string> => new Set(text.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => anchorOf(l.replace(/^#+ /, ''))))

/** Relative links of a markdown file that lead to no file, or to no heading of it. */
function brokenLinks (file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const broken: string[] = []
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? ''
    if (/^[a-z]+:/.test(target)) continue
    const [path = '', anchor] = target.split('#')
    const linked = path === '' ? file : resolve(dirname(file), path)
    let linkedText: string
    try { linkedText = readFileSync(linked, 'utf8') } catch { broken.push(`${target}: no such file`); continue }
    if (anchor !== undefined && !anchorsIn(linkedText).has(anchor)) broken.push(`${target}: no such heading`)
  }
  return broken
}

describe('docs/production', () => {
  it.each(PAGES)('%s names only settings the processes know, each on a process that has it', (page) => {
    const { problems, rows } = settingProblems(page, readFileSync(join(PAGES_DIR, page), 'utf8'))
    expect(problems).toEqual([])
    expect(rows, `${page} has no settings table`).toBeGreaterThan(0)
  })

  it('finds a misspelt setting, a removed one, and one set on the wrong process', () => {
    const page = [
      'Set `STORE_URLL` and `KEYSTONE_AUTH_URL=http://k/v3`.',
      '',
      '| setting | set on | value |',
      '|---|---|---|',
      '| `DECKHAND_URL` | orchestrator | x |',
      '| `ENGINE_URL` | orchestrator, step runner | y |',
      '| `OS_AUTH_URL` | shipyard CLI | z |',
      '| `STORE_URL` | the store | w |'
    ].join('\n')
    expect(settingProblems('made-up.md', page)).toEqual({
      rows: 4,
      problems: [
        'made-up.md: `STORE_URLL` is no setting of any process',
        'made-up.md: `DECKHAND_URL` is no setting of the orchestrator',
        'made-up.md: `ENGINE_URL` is no setting of the step runner',
        'made-up.md: `STORE_URL` is set on "the store", which is no process of the pages'
      ]
    })
  })

  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(join(PAGES_DIR, page))).toEqual([])
  })

  it('lists every page in its index, and the README and the operations page lead to it', () => {
    const index = readFileSync(join(PAGES_DIR, 'README.md'), 'utf8')
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect(index, page).toContain(`](${page})`)
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const next = readme.slice(readme.indexOf('## Where to go next'))
    expect(next).toContain('](docs/production/README.md)')
    expect(next).toContain('](docs/operations.md#backups-and-restore)')
    expect(brokenLinks(join(ROOT, 'README.md'))).toEqual([])
    expect(brokenLinks(join(ROOT, 'docs/operations.md'))).toEqual([])
  })
})
