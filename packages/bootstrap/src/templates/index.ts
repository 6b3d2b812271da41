// The text a join produces lives in the *.tpl files beside this module, as Promenade keeps its templates: the join
// script and its parts (*.sh.tpl), the helper scripts it installs, and the configuration files of its payload
// (hosts, resolv.conf, chrony.conf, haproxy.cfg, the kubelet's unit and defaults, the proxy drop-ins). This module
// reads each of them once, when it is first imported (a file missing from an install stops the service at start, not
// at its first join), and fills their placeholders.
//
// A placeholder is `{{ name }}`, with one blank inside each brace pair, so that bash text and the Go templates
// kubectl is given (`{{range …}}`, `{{$k}}`) are never taken for one. Values go in exactly as they are given: the
// caller quotes them for bash (or checks them for the file they go into) first. A placeholder alone on its line takes
// a list of lines: none removes the line.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** What a template is filled with: text for a placeholder, or lines for a placeholder alone on its line. */
export type TemplateValues = Record<string, string | string[]>

// each template is the file of its name with `.tpl` added
const NAMES = [
  'join.sh', 'remove-admin-credentials.sh', 'unpack.sh', 'unpack-gpg.sh', 'apt-key.sh', 'systemd-unit.sh',
  'haproxy.sh', 'helm.sh', 'teardown.sh', 'debug-report.sh',
  'hosts', 'resolv.conf', 'nameserver.conf', 'chrony.conf', 'ntp-server.conf', 'haproxy.cfg', 'haproxy-server.cfg',
  'kubelet.service', 'kubelet.default', 'http-proxy.conf'
] as const
export type TemplateName = typeof NAMES[number]

const TEMPLATES = new Map<TemplateName, string>(NAMES.map((name) => [name, readFileSync(join(import.meta.dirname, `${name}.tpl`), 'utf8')]))

// a placeholder alone on its line (with that line's end), or one inside a line
const PLACEHOLDER = /^\{\{ ([a-z_]+) \}\}\n|\{\{ ([a-z_]+) \}\}/gm

/** The text of a template as it is stored, for the scripts without placeholders. */
export function templateText (name: TemplateName): string {
  const text = TEMPLATES.get(name)
  if (text === undefined) throw new Error(`no template ${name}`)
  return text
}

/**
 * The template with every placeholder replaced, in one pass (a value is never read again for placeholders).
 * A placeholder without a value, a list given for one inside a line, or a value no placeholder takes is a mistake
 * of the code that fills it: an Error naming the template and the placeholder.
 */
export function fill (name: TemplateName, values: TemplateValues): string {
  const used = new Set<string>()
  const text = templateText(name).replace(PLACEHOLDER, (_match, lineName: string | undefined, inlineName: string | undefined) => {
    const key = (lineName ?? inlineName) as string
    const value = values[key]
    if (value === undefined) throw new Error(`template ${name}: no value for {{ ${key} }}`)
    used.add(key)
    if (lineName === undefined) {
      if (typeof value !== 'string') throw new Error(`template ${name}: {{ ${key} }} stands inside a line and takes text, not lines`)
      return value
    }
    return typeof value === 'string' ? `${value}\n` : value.map((line) => `${line}\n`).join('')
  })
  const unused = Object.keys(values).filter((key) => !used.has(key))
  if (unused.length > 0) throw new Error(`template ${name} has no placeholder for ${unused.join(', ')}`)
  return text
}

/** A template's lines filled once for each set of values (a line template per item, e.g. one apt key each). */
export function fillEach (name: TemplateName, items: TemplateValues[]): string[] {
  return items.map((values) => fill(name, values).replace(/\n$/, ''))
}

/** A template's text as the lines it holds (its last line end dropped), to go where a list of lines goes. */
export function templateLines (name: TemplateName, values: TemplateValues = {}): string[] {
  return fill(name, values).replace(/\n$/, '').split('\n')
}
