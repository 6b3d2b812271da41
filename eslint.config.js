// Lint rules for the whole workspace: neostandard (no semicolons, single quotes) with TypeScript, and the import
// boundaries of STYLE.md and DESIGN.md.
import neostandard from 'neostandard'

// a test reaches another package's test helpers through that package's exports (a `testing` subpath), never by path
const OTHER_PACKAGES_TESTS = { regex: '^(\\.\\./){2,}[^./][^/]*/test/', message: 'Import another package\'s test helpers from its package exports (e.g. @slipway/stub-engine/testing), not its test/ folder.' }
// the services' production code never runs against a stand-in's code
const STAND_INS = { group: ['@slipway/stub-*', '@slipway/stub-*/**'], message: 'Services never import the stand-ins; share contracts through @slipway/airflow-contract or @slipway/common.' }
// the domain layer is framework-free: no HTTP framework, HTTP library or HTTP client (STYLE.md); clients/ call out
const HTTP = {
  paths: [
    'fastify', 'undici',
    { name: '@slipway/common', importNames: ['createHttpClient', 'HttpClient', 'HttpClientOptions'], message: 'The domain calls no one: take a client from clients/ as a dependency.' }
  ],
  patterns: [{ group: ['fastify/*', '@fastify/*', 'undici/*'], message: 'The domain is framework-free.' }]
}
// The source files under the strict line rule: a long line there is exempt only when it is nothing but one string or
// template literal (an error message, a description, a SQL statement), alone or after a key or an assignment
// (`key: '…'`, `x = '…'`, `const x = '…'`), a call's opening (`fn('…'`, `throw new E('…'`), `return`, a spread or a
// ternary's `?` or `:`, and followed only by closing punctuation. Breaking such a literal would scatter the text one
// searches for; anything more on the line (a second argument, a concatenation, a condition, a URL or a regular
// expression among code) is wrapped instead.
const SOURCES = ['packages/*/src/**', 'bench/**']
// what may come before the literal: each alternative one of the leads named above
const LEAD = [
  String.raw`(?:export\s+)?(?:const|let)\s+[\w$]+\s*=\s*`,
  String.raw`[\w.$\[\]'"]+\s*[:=]\s*`,
  String.raw`(?:throw\s+)?(?:new\s+)?[\w.$]+\(`,
  String.raw`return\s+`,
  String.raw`\.\.\.`,
  String.raw`[?:]\s+`
]
// one quoted or backquoted literal, escapes included
const LITERAL = ["'", '"', '`'].map((quote) => `${quote}(?:[^${quote}\\\\]|\\\\.)*${quote}`)
const LONG_LITERAL_LINE = `^\\s*(?:${LEAD.join('|')})?(?:${LITERAL.join('|')})[,)\\]};]*$`

/** One no-restricted-imports setting per file group (a later setting replaces an earlier one for the same file). */
const restrict = ({ paths = [], patterns = [] }) => ({ 'no-restricted-imports': ['error', { paths, patterns: [...patterns, OTHER_PACKAGES_TESTS] }] })

export default [
  ...neostandard({ ts: true, ignores: ['node_modules/**', 'data/**', '**/coverage/**'] }),
  {
    // a line is read in one glance: at most 140 characters. Tests and other files outside the packages' src/ and
    // bench/ are exempt on any line holding a string, template literal, URL or regular expression: they are mostly
    // expected bodies and messages quoted whole, which read best unbroken. Generated files are exempt
    ignores: ['packages/airflow-contract/src/generated/**'],
    rules: { '@stylistic/max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }] }
  },
  {
    // source code: a line holding a literal among other code is wrapped like any other; only a line that is one long
    // literal (LONG_LITERAL_LINE) may pass 140
    files: SOURCES,
    ignores: ['packages/airflow-contract/src/generated/**'],
    rules: { '@stylistic/max-len': ['error', { code: 140, ignorePattern: LONG_LITERAL_LINE }] }
  },
  {
    files: ['**/*.ts'],
    rules: restrict({})
  },
  {
    files: ['packages/*/src/domain/**/*.ts'],
    rules: restrict(HTTP)
  },
  {
    files: ['packages/orchestrator/src/**/*.ts', 'packages/bootstrap/src/**/*.ts'],
    rules: restrict({ patterns: [STAND_INS] })
  },
  {
    files: ['packages/orchestrator/src/domain/**/*.ts', 'packages/bootstrap/src/domain/**/*.ts'],
    rules: restrict({ paths: HTTP.paths, patterns: [...HTTP.patterns, STAND_INS] })
  },
  {
    // the bootstrap service's clients call out and share types with the domain through src/types.ts, src/errors.ts
    // and src/ipv4.ts: the stairs go one way (routes → domain → clients), so no client imports the domain
    files: ['packages/bootstrap/src/clients/**/*.ts'],
    rules: restrict({ patterns: [STAND_INS, { regex: '(^|/)domain(/|$)', message: 'Clients import no domain module: share types through src/types.ts (errors: src/errors.ts).' }] })
  },
  {
    // the operator's console is plain ES modules run by browsers (packages/orchestrator/console)
    files: ['packages/orchestrator/console/**/*.js'],
    languageOptions: { globals: { location: 'readonly', sessionStorage: 'readonly', Node: 'readonly', AbortController: 'readonly' } }
  },
  {
    // common is shared by every service and may import none of them
    files: ['packages/common/**/*.ts'],
    rules: restrict({ patterns: [{ group: ['@slipway/orchestrator', '@slipway/bootstrap', '@slipway/stub-*'], message: 'common imports no service.' }] })
  }
]
