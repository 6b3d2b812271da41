// The example site's two collections (examples/site), as tests stage them.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

const SITE = resolve(import.meta.dirname, '../../../../examples/site')
export const GLOBAL_YAML = readFileSync(resolve(SITE, 'global.yaml'), 'utf8')
export const SITE_YAML = readFileSync(resolve(SITE, 'site.yaml'), 'utf8')
