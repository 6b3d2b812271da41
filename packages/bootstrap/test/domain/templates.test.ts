// The template filler: placeholders filled in one pass, lines for a placeholder alone on its line, and every mistake
// of the filling code an error naming the template and the placeholder.
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fill, fillEach, templateLines, templateText } from '../../src/templates/index.ts'

const ROOT = resolve(import.meta.dirname, '../../../..')

/** A .dockerignore pattern as a regular expression over a path from the repository's root (the path or a parent). */
function ignoreRegex (pattern: string): RegExp {
  const text = pattern.replace(/^\//, '')
  let body = ''
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('**/', i)) {
      body += '(?:.*/)?'
      i += 2
    } else if (text.startsWith('**', i)) {
      body += '.*'
      i += 1
    } else if (text[i] === '*') {
      body += '[^/]*'
    } else if (text[i] === '?') {
      body += '[^/]'
    } else {
      body += (text[i] as string).replace(/[.+^${}()|[\]\\]/g, '\\$&')
    }
  }
  return new RegExp(`^${body}(?:/.*)?$`)
}

describe('the join script templates', () => {
  it('are in the container image: the Dockerfile copies packages/ whole and .dockerignore leaves out none of them', () => {
    expect(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8')).toMatch(/^COPY packages \.\/packages$/m)
    const ignored = readFileSync(resolve(ROOT, '.dockerignore'), 'utf8').split('\n')
      .map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
    expect(ignored.some((pattern) => pattern.startsWith('!'))).toBe(false)
    const templates = readdirSync(resolve(import.meta.dirname, '../../src/templates')).map((file) => `packages/bootstrap/src/templates/${file}`)
    // the reading of the patterns is right: what is left out is found left out
    for (const path of ['packages/bootstrap/test/golden/full.sh', 'node_modules/yaml/package.json', '.git/HEAD']) {
      expect(ignored.map(ignoreRegex).some((regex) => regex.test(path)), path).toBe(true)
    }
    for (const template of templates) expect(ignored.filter((pattern) => ignoreRegex(pattern).test(template)), template).toEqual([])
  })

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
