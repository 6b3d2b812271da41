// The helper scripts a join installs on the node: haproxy and helm run from their images, the teardown that removes
// the node from the cluster, and the debug report for support (templates/*.sh.tpl).
import { fill, templateText } from '../templates/index.ts'
import { shellQuote } from './shell.ts'

export function haproxyWrapper (image: string): string {
  return fill('haproxy.sh', { image: shellQuote(image) })
}

export function helmWrapper (image: string): string {
  return fill('helm.sh', { image: shellQuote(image) })
}

export const TEARDOWN = templateText('teardown.sh')

export const DEBUG_REPORT = templateText('debug-report.sh')
