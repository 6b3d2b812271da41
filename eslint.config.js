// Lint rules for the whole workspace: neostandard (no semicolons, single quotes) with TypeScript.
import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['node_modules/**', 'data/**', '**/coverage/**'] }),
  {
    // the domain layer is framework-free (STYLE.md)
    files: ['packages/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['fastify', 'undici'] }]
    }
  },
  {
    // the operator's console is plain ES modules run by browsers (packages/orchestrator/console)
    files: ['packages/orchestrator/console/**/*.js'],
    languageOptions: { globals: { location: 'readonly', sessionStorage: 'readonly', Node: 'readonly', AbortController: 'readonly' } }
  },
  {
    // common is shared by every service and may import none of them
    files: ['packages/common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@slipway/orchestrator', '@slipway/bootstrap', '@slipway/stub-*'] }]
    }
  }
]
