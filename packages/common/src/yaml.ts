// Site documents are YAML written for PyYAML (YAML 1.1). The yaml package's 1.1 schema is looser than PyYAML's
// resolver in a few places (`y`/`n` as booleans, `.` as NaN, `1e5` and `09` as numbers), so its scalar tests are
// tightened here; every service reads documents through these functions and agrees with the store on values.
import { parseAllDocuments, type DocumentOptions, type ParseOptions, type SchemaOptions, type Tags } from 'yaml'

/** Bound on alias expansion per document (billion laughs) unless the caller picks another. */
export const DEFAULT_MAX_ALIAS_COUNT = 1000

export class YamlError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'YamlError'
  }
}

// the yaml package's 1.1 test (by its source) → PyYAML's resolver
const PYYAML_TESTS = new Map<string, RegExp>([
  ['^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$', /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/],
  ['^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$', /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/],
  ['^[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*$', /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)$/],
  ['^[-+]?(?:[0-9][0-9_]*)?(?:\\.[0-9_]*)?[eE][-+]?[0-9]+$', /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)[eE][-+][0-9]+$/],
  ['^[-+]?[0-9][0-9_]*$', /^[-+]?(?:0|[1-9][0-9_]*)$/]
])

/** `customTags` for the yaml package's 1.1 schema that resolve plain scalars as PyYAML does. */
export function pyyamlTags (tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== 'object' || !('test' in tag) || !(tag.test instanceof RegExp)) return tag
    const test = PYYAML_TESTS.get(tag.test.source)
    return test === undefined ? tag : { ...tag, test }
  }) as Tags
}

/** Parser options giving PyYAML's YAML 1.1 semantics. */
export const PYYAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = { version: '1.1', customTags: pyyamlTags, logLevel: 'error' }

/**
 * Every document of a YAML stream as plain values, in order, with PyYAML's 1.1 semantics; empty documents
 * (and a stream of comments only) give nothing. A syntax error or too many aliases is a YamlError.
 */
export function parseYamlDocuments (text: string, options: { maxAliasCount?: number, uniqueKeys?: boolean } = {}): unknown[] {
  let docs
  try {
    docs = parseAllDocuments(text, { ...PYYAML_OPTIONS, uniqueKeys: options.uniqueKeys ?? true })
  } catch (error) {
    throw new YamlError((error as Error).message)
  }
  const values: unknown[] = []
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    const first = doc.errors[0]
    if (first !== undefined) throw new YamlError(first.message)
    let value: unknown
    try {
      value = doc.toJS({ maxAliasCount: options.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT })
    } catch (error) {
      throw new YamlError((error as Error).message)
    }
    if (value !== null && value !== undefined) values.push(value)
  }
  return values
}

/** One YAML document (the first of a stream; null for an empty one), with the same semantics. */
export function parseYamlDocument (text: string): unknown {
  return parseYamlDocuments(text)[0] ?? null
}
