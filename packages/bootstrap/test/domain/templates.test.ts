// The template filler: placeholders filled in one pass, lines for a placeholder alone on its line, and every mistake
// of the filling code an error naming the template and the placeholder.
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fill, fillEach, templateLines, templateText } from '../../src/templates/index.ts'

describe('the join script templates', () => {
  it('reads every template file beside the filler, and only those', () => {
    const files = readdirSync(resolve(import.meta.dirname, '../../src/templates')).filter((f) => f.endsWith('.tpl')).sort()
    expect(files).toEqual([
      'apt-key.sh', 'chrony.conf', 'debug-report.sh', 'haproxy-server.cfg', 'haproxy.cfg', 'haproxy.sh', 'helm.sh', 'hosts', 'http-proxy.conf',
      'join.sh', 'kubelet.default', 'kubelet.service', 'nameserver.conf', 'ntp-server.conf', 'remove-admin-credentials.sh', 'resolv.conf',
      'systemd-unit.sh', 'teardown.sh', 'unpack-gpg.sh', 'unpack.sh'
    ].map((name) => `${name}.tpl`).sort())
    expect(templateText('teardown.sh')).toContain("go-template='{{range $k, $v := .metadata.labels}}{{$k}} {{end}}'")
  })

  it('fills text in place, and never reads a value again for placeholders', () => {
    expect(fill('systemd-unit.sh', { action: 'start', unit: "'{{ action }}'" })).toBe("systemctl start -- '{{ action }}'\n")
    expect(fill('haproxy.sh', { image: "'a$b'" })).toContain("IMAGE='a$b'\n")
  })

  it('puts lines where a placeholder stands alone on its line, and removes the line for none', () => {
    expect(templateLines('remove-admin-credentials.sh')).toEqual(['remove_admin_credentials () {', '  rm -rf /etc/kubernetes/admin /usr/local/bin/kubectl', '}',
      'trap remove_admin_credentials EXIT', ''])
    expect(fillEach('apt-key.sh', [{ key: "'a'" }, { key: "'b'" }])).toEqual(["echo 'a' | base64 -d | apt-key add -", "echo 'b' | base64 -d | apt-key add -"])
  })

  it('refuses a placeholder without a value, lines inside a line, and a value no placeholder takes', () => {
    expect(() => fill('systemd-unit.sh', { action: 'start' })).toThrow('template systemd-unit.sh: no value for {{ unit }}')
    expect(() => fill('systemd-unit.sh', { action: ['start'], unit: 'u' })).toThrow('template systemd-unit.sh: {{ action }} stands inside a line and takes text, not lines')
    expect(() => fill('systemd-unit.sh', { action: 'start', unit: 'u', other: 'x' })).toThrow('template systemd-unit.sh has no placeholder for other')
  })
})
