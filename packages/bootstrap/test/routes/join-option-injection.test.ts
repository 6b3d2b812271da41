// Option injection through the design (issue 25, fault 6): a package, unit, image or name to resolve that the root
// join script passes to a command must not be read as one of its options. Such names are refused with 400
// (ValidationException, naming the field, not the value), and apt-get and systemctl get `--` before theirs.
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { exampleDesign, joinUrl, setupJoin } from '../helpers/servers.ts'
import { bashSyntax, HAS_SHELLCHECK, shellcheck } from '../helpers/script.ts'

const N1 = (href: string): Array<[string, string]> => [['design_ref', href], ['hostname', 'n1'], ['ip', '192.168.77.11']]

async function join (design: string) {
  const { app, href } = await setupJoin(design)
  return await app.inject({ url: joinUrl(N1(href)), headers: AUTH })
}

/** The example design with one text replaced; fails when the text is not there. */
function replaced (from: string, to: string): string {
  const design = exampleDesign()
  if (!design.includes(from)) throw new Error(`the example design has no ${JSON.stringify(from)}`)
  return design.replace(from, to)
}

const HOST_SYSTEM = 'Document promenade/HostSystem/v1 host-system: data.'
const NETWORK = 'Document promenade/KubernetesNetwork/v1 kubernetes-network: data.'

describe('GET /join-scripts refuses design values a command would read as options', () => {
  it.each([
    ['a required package', '        runtime: containerd\n', '        runtime: "-oDPkg::Pre-Invoke::=touch /tmp/pwned"\n', `${HOST_SYSTEM}packages.common.required.runtime must be a Debian package name`],
    ['an additional package', '        - curl\n', '        - "-oDPkg::Pre-Invoke::=/bin/sh"\n', `${HOST_SYSTEM}packages.common.additional[0] must be a Debian package name`],
    ['a long apt option', '        - curl\n', '        - --allow-unauthenticated\n', `${HOST_SYSTEM}packages.common.additional[0] must be a Debian package name`],
    ['shell text as a package', '        - curl\n', "        - \"curl'; touch /tmp/pwned; echo '\"\n", `${HOST_SYSTEM}packages.common.additional[0] must be a Debian package name`],
    ['a pattern as a package', '        - curl\n', '        - "curl*"\n', `${HOST_SYSTEM}packages.common.additional[0] must be a Debian package name`],
    ['a systemctl option as a unit', '    kube-cgroup:\n', '    "--root=/tmp/elsewhere":\n', `${HOST_SYSTEM}systemd_units: key 1 must be a systemd unit name`],
    ['a unit with a blank', '    kube-cgroup:\n', '    "kube cgroup":\n', `${HOST_SYSTEM}systemd_units: key 1 must be a systemd unit name`],
    ['a docker option as an image', '    haproxy: registry.example.org/haproxy:2.8\n', '    haproxy: --privileged\n', `${HOST_SYSTEM}images.haproxy must be an image reference`],
    ['a docker option as the helm image', '      helm: registry.example.org/helm:3.14\n', '      helm: --privileged\n', `${HOST_SYSTEM}images.helm.helm must be an image reference`],
    ['a dig option as a name to check', '    service_ip: 10.96.0.10\n', '    service_ip: 10.96.0.10\n    bootstrap_validation_checks: [-f/etc/shadow]\n', `${NETWORK}dns.bootstrap_validation_checks[0] must be a DNS name`]
  ])('refuses %s with 400 ValidationException, naming the field and not the value', async (_what, from, to, message) => {
    const res = await join(replaced(from, to))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: '400 Bad Request', details: { errorType: 'ValidationException' } })
    expect(res.json().message).toContain(message)
    expect(res.json().reason).toBe(res.json().message)
    for (const value of ['Pre-Invoke', 'pwned', 'allow-unauthenticated', 'elsewhere', 'privileged', 'shadow']) expect(res.json().message).not.toContain(value)
  })

  it('accepts package names with an architecture, a version or a release, and puts `--` before packages and units', async () => {
    const design = replaced('        runtime: containerd\n', '        runtime: containerd.io=1.6.28-1\n        docker: docker.io:amd64=24.0.7-0ubuntu2~22.04.1\n')
      .replace('        - curl\n', '        - curl/jammy-backports\n        - libstdc++6\n')
      .replace('    kube-cgroup:\n', '    dev-disk-by\\x2dlabel-data.device:\n      start: true\n    kube-cgroup:\n')
      .replace('    service_ip: 10.96.0.10\n', '    service_ip: 10.96.0.10\n    bootstrap_validation_checks: [kubernetes.default.svc.cluster.local, example.org]\n')
    const res = await join(design)
    expect(res.statusCode, res.body).toBe(200)
    const script = res.body
    expect(script).toContain("APT_PACKAGES=('containerd.io=1.6.28-1' 'docker.io:amd64=24.0.7-0ubuntu2~22.04.1' 'socat' 'curl/jammy-backports' 'libstdc++6')")
    // eslint-disable-next-line no-template-curly-in-string -- a bash expansion in the script's text
    expect(script).toContain('apt-get install -o Dpkg::Options::=--force-confold -y --no-install-recommends -- "${APT_PACKAGES[@]}"')
    expect(script).toContain("systemctl enable -- 'kube-cgroup'")
    expect(script).toContain("systemctl start -- 'dev-disk-by\\x2dlabel-data.device'")
    expect(script).toContain("DNS_CHECKS=('kubernetes.default.svc.cluster.local' 'example.org')")
    // every unit from the design comes after `--`
    expect(script.split('\n').filter((line) => /^systemctl [a-z]+ '/.test(line))).toEqual([])
    expect(bashSyntax(script)).toBe(0)
    if (HAS_SHELLCHECK) expect(shellcheck(script).output).toBe('')
  })
})
