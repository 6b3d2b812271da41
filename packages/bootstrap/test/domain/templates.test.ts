// The template filler: placeholders filled in one pass, lines for a placeholder alone on its line, and every mistake
// of the filling code an error naming the template and the placeholder.
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fill, fillEach, templateLines, templateText } from '../../src/templates/index.ts'

describe('the join script templates', () => {
  it('reads every template file beside the filler, and only those', () => {
    const files = readdirSync(resolve(import.meta.dirname, '../../src/templates')).filter((f) => f.endsWith('.sh.tpl')).sort()
    expect(files).toEqual(['apt-key', 'debug-report', 'haproxy', 'helm', 'join', 'remove-admin-credentials', 'systemd-unit', 'teardown', 'unpack', 'unpack-gpg']
      .map((name) => `${name}.sh.tpl`).sort())
    expect(templateText('teardown')).toContain("go-template='{{range $k, $v := .metadata.labels}}{{$k}} {{end}}'")
  })

  it('fills text in place, and never reads a value again for placeholders', () => {
    expect(fill('systemd-unit', { action: 'start', unit: "'{{ action }}'" })).toBe("systemctl start -- '{{ action }}'\n")
    expect(fill('haproxy', { image: "'a$b'" })).toContain("IMAGE='a$b'\n")
  })

  it('puts lines where a placeholder stands alone on its line, and removes the line for none', () => {
    expect(templateLines('remove-admin-credentials')).toEqual(['remove_admin_credentials () {', '  rm -rf /etc/kubernetes/admin /usr/local/bin/kubectl', '}',
      'trap remove_admin_credentials EXIT', ''])
    expect(fillEach('apt-key', [{ key: "'a'" }, { key: "'b'" }])).toEqual(["echo 'a' | base64 -d | apt-key add -", "echo 'b' | base64 -d | apt-key add -"])
  })

  it('refuses a placeholder without a value, lines inside a line, and a value no placeholder takes', () => {
    expect(() => fill('systemd-unit', { action: 'start' })).toThrow('template systemd-unit: no value for {{ unit }}')
    expect(() => fill('systemd-unit', { action: ['start'], unit: 'u' })).toThrow('template systemd-unit: {{ action }} stands inside a line and takes text, not lines')
    expect(() => fill('systemd-unit', { action: 'start', unit: 'u', other: 'x' })).toThrow('template systemd-unit has no placeholder for other')
  })
})
