// The join script (spec/bootstrap.md §6.4–6.8): the node's document, the files it needs packed in a
// tar.gz, and a bash script from our own template. Every value that reaches shell text is quoted, and every value
// passed to a command is checked against the syntax of what it names (design-values.ts).
/* eslint-disable no-template-curly-in-string -- the script template holds bash ${…} expansions, not JS templates */
import { stringify as stringifyYaml } from 'yaml'
import { DesignError, dataAt, indexDesign, requireDataAt, type DesignDocument, type DesignIndex } from './documents.ts'
import { debianPackage, DNS_NAME, dnsNames, imageRef, isObject, lines, port, record, systemdUnit, where, word, words } from './design-values.ts'
import { hostSystemFiles, type RemoteFiles } from './host-files.ts'
import type { JoinParams } from './join-params.ts'
import { ArchiveError, tarGz, type TarEntry } from './tar.ts'
import { DEBUG_REPORT, haproxyWrapper, helmWrapper, TEARDOWN } from './node-scripts.ts'
import { shellQuote } from './shell.ts'

/** Encryption was asked for by the design but cannot be done here (500, spec §6.10). */
export class EncryptionError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'EncryptionError'
  }
}

function pem (design: DesignIndex, schema: string, name: string): string {
  const data = design.require(schema, name).data
  if (typeof data !== 'string' || data === '') throw new DesignError(`Document ${schema} ${name} has no PEM data`)
  return data
}

function deepMerge (base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key]
    out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value
  }
  return out
}

/** The synthesized KubernetesNode document (spec §6.5). */
export function nodeDocument (params: JoinParams, joinIps: string[]): DesignDocument {
  return {
    schema: 'promenade/KubernetesNode/v1',
    metadata: { schema: 'metadata/Document/v1', name: params.hostname, layeringDefinition: { abstract: false, layer: 'site' }, storagePolicy: 'cleartext' },
    data: {
      hostname: params.hostname,
      domain: params.domain,
      ip: params.ip,
      external_ip: params.externalIp,
      join_ips: joinIps,
      labels: { dynamic: params.dynamicLabels, static: params.staticLabels }
    }
  }
}

function kubeconfig (port: number, ca: string, user: string, cert: string, key: string): string {
  return stringifyYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubernetes', cluster: { server: `https://127.0.0.1:${port}`, 'certificate-authority': ca } }],
    users: [{ name: user, user: { 'client-certificate': cert, 'client-key': key } }],
    contexts: [{ name: `${user}@kubernetes`, context: { cluster: 'kubernetes', user } }],
    'current-context': `${user}@kubernetes`
  })
}

interface Packages { keys: string[], packages: string[], repositories: string[] }

function packagesOf (hostSystem: DesignDocument, role: 'common' | 'join'): Packages {
  const base = `packages.${role}`
  const textList = (path: string): string[] => {
    const value = dataAt(hostSystem, `${base}.${path}`)
    if (value === undefined) return []
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new DesignError(`${where(hostSystem, `${base}.${path}`)} must be a list of strings`)
    return value as string[]
  }
  const required = Object.entries(record(dataAt(hostSystem, `${base}.required`))).map(([key, value]) => debianPackage(hostSystem, `${base}.required.${key}`, value))
  const additional = textList('additional').map((value, i) => debianPackage(hostSystem, `${base}.additional[${i}]`, value))
  return {
    // keys travel base64-encoded, so any text is safe there; sources are lines of a file; packages are package names
    keys: textList('keys'),
    repositories: lines(hostSystem, `${base}.repositories`),
    packages: [...required, ...additional]
  }
}

/** systemd Environment= value: `%` starts a specifier there, so it is doubled. */
function systemdValue (value: string): string {
  return value.replaceAll('%', '%%')
}

/** no_proxy as the node uses it (spec §6.8): the site's list, then the cluster's own names. */
function noProxyOf (network: DesignDocument, proxyUrl: string, clusterDomain: string): string {
  if (proxyUrl === '') return ''
  return [...words(network, 'proxy.additional_no_proxy'), '127.0.0.1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${clusterDomain}`].join(',')
}

function proxyUrlOf (network: DesignDocument): string {
  const value = dataAt(network, 'proxy.url')
  if (value === undefined) return ''
  const url = word(network, 'proxy.url', value)
  if (!/^https?:\/\/[^/]/.test(url)) throw new DesignError(`${where(network, 'proxy.url')} must be an http(s) URL`)
  return url
}

function clusterDomainOf (network: DesignDocument, kubeadm: boolean): string {
  const value = dataAt(network, 'dns.cluster_domain') ?? (kubeadm ? 'cluster.local' : requireDataAt(network, 'dns.cluster_domain'))
  if (typeof value !== 'string' || !DNS_NAME.test(value)) throw new DesignError(`${where(network, 'dns.cluster_domain')} must be a DNS name`)
  return value
}

/** The payload files for this node, in archive order (spec §6.8). */
export async function payloadFiles (
  design: DesignIndex,
  params: JoinParams,
  joinIps: string[],
  remote: RemoteFiles = new Map()
): Promise<TarEntry[]> {
  const hostSystem = design.require('promenade/HostSystem/v1')
  const network = design.require('promenade/KubernetesNetwork/v1')
  const docker = design.require('promenade/Docker/v1')
  const kubelet = design.require('promenade/Kubelet/v1')
  const kubeadm = params.dynamicLabels.includes('kubeadm=enabled')
  const serviceIp = word(network, 'dns.service_ip', requireDataAt(network, 'dns.service_ip'))
  const clusterDomain = clusterDomainOf(network, kubeadm)
  const haproxyPort = port(network, 'kubernetes.haproxy_port')
  const apiserverPort = port(network, 'kubernetes.apiserver_port')
  const dockerConfig = requireDataAt(docker, 'config')
  if (!isObject(dockerConfig)) throw new DesignError(`${where(docker, 'config')} must be a mapping`)
  const haproxyImage = imageRef(hostSystem, 'images.haproxy', requireDataAt(hostSystem, 'images.haproxy'))
  const helm = dataAt(hostSystem, 'images.helm.helm')
  const helmImage = helm === undefined ? '' : imageRef(hostSystem, 'images.helm.helm', helm)
  const clusterCa = pem(design, 'deckhand/CertificateAuthority/v1', 'kubernetes')
  const kubeletCa = design.find('deckhand/CertificateAuthority/v1', 'kubelet') === undefined ? clusterCa : pem(design, 'deckhand/CertificateAuthority/v1', 'kubelet')
  const adminCert = pem(design, 'deckhand/Certificate/v1', 'admin')
  const adminKey = pem(design, 'deckhand/CertificateKey/v1', 'admin')
  const nodeCert = pem(design, 'deckhand/Certificate/v1', `kubelet-${params.hostname}`)
  const nodeKey = pem(design, 'deckhand/CertificateKey/v1', `kubelet-${params.hostname}`)
  if (joinIps.length === 0) throw new DesignError('Could not find join IPs')

  const proxyUrl = proxyUrlOf(network)
  const noProxy = noProxyOf(network, proxyUrl, clusterDomain)
  const proxyConf = `[Service]\nEnvironment="HTTP_PROXY=${systemdValue(proxyUrl)}"\nEnvironment="HTTPS_PROXY=${systemdValue(proxyUrl)}"\nEnvironment="NO_PROXY=${systemdValue(noProxy)}"\n`

  const entries = dataAt(network, 'hosts_entries')
  const hostsEntries = (Array.isArray(entries) ? entries : []).map((entry, i) => {
    const e = record(entry)
    const names = Array.isArray(e.names) ? e.names.map((name, j) => word(network, `hosts_entries[${i}].names[${j}]`, name)) : []
    return [word(network, `hosts_entries[${i}].ip`, e.ip), ...names].join(' ')
  })
  const kubeletArgs = kubeadm
    ? lines(design.require('armada/Chart/v1', 'kubernetes-kubeadm'), 'values.kubelet.arguments')
    : lines(kubelet, 'arguments')
  const extraArgs = [`--hostname-override=${params.hostname}`, `--node-ip=${params.ip}`,
    ...(params.staticLabels.length > 0 ? [`--node-labels=${params.staticLabels.join(',')}`] : []), ...kubeletArgs]
  for (const arg of extraArgs) {
    // an EnvironmentFile line: a quote or newline here would inject variables
    if (/["\\\n\r$`]/.test(arg)) throw new DesignError(`Kubelet argument ${JSON.stringify(arg)} contains characters that cannot be written safely`)
  }
  const kubeletConfig = kubeadm
    ? ''
    : stringifyYaml(deepMerge({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: '/etc/kubernetes/pki/kubelet-client-ca.pem' } },
      authorization: { mode: 'AlwaysAllow' },
      clusterDNS: [serviceIp],
      clusterDomain,
      staticPodPath: '/etc/kubernetes/manifests',
      tlsCertFile: '/etc/kubernetes/pki/kubelet.pem',
      tlsPrivateKeyFile: '/etc/kubernetes/pki/kubelet-key.pem'
    }, record(dataAt(kubelet, 'config_file_overrides'))))
  const kubeletUnit = [
    '[Unit]', 'Description=Kubernetes worker process', 'Requires=network-online.target', 'After=network-online.target containerd.service', '',
    '[Service]',
    kubeadm
      ? 'Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"'
      : 'Environment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"',
    kubeadm ? 'Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"' : 'Environment="KUBELET_CONFIG_ARGS=--config=/etc/kubernetes/kubelet/config.yaml"',
    'EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env', 'EnvironmentFile=-/etc/default/kubelet',
    'ExecStart=/usr/local/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS',
    'Restart=always', 'StartLimitInterval=0', 'RestartSec=10', 'KillMode=process', '',
    '[Install]', 'WantedBy=multi-user.target', ''
  ].join('\n')
  const haproxyCfg = [
    'global', '  maxconn 10240', '', 'defaults', '  mode tcp', '  timeout connect 5000ms', '  timeout client 24h', '  timeout server 24h', '',
    'frontend kubernetes', `  bind *:${haproxyPort}`, '  default_backend kubernetes-apiserver', '',
    'backend kubernetes-apiserver', '  option tcp-check',
    ...joinIps.map((ip) => `  server s${ip} ${ip}:${apiserverPort} check port ${apiserverPort}`), ''
  ].join('\n')
  const common = packagesOf(hostSystem, 'common')
  const join = packagesOf(hostSystem, 'join')

  const files: TarEntry[] = [
    { path: 'etc/hosts', mode: 0o644, content: ['# managed by the Slipway bootstrap service', '127.0.0.1 localhost', `${params.externalIp} ${params.hostname}.${params.domain} ${params.hostname}`, ...hostsEntries, ''].join('\n') },
    { path: 'etc/resolv.conf', mode: 0o644, content: ['options timeout:1 attempts:1', `search ${params.domain}`, '', `nameserver ${serviceIp}`, ...words(network, 'dns.upstream_servers').map((s) => `nameserver ${s}`), ''].join('\n') },
    { path: 'etc/chrony/chrony.conf', mode: 0o644, content: ['keyfile /etc/chrony/chrony.keys', 'driftfile /var/lib/chrony/chrony.drift', 'logdir /var/log/chrony', 'maxupdateskew 100.0', 'rtcsync', 'makestep 1 3', ...words(network, 'ntp.servers').map((s) => `server ${s} iburst`), 'allow 127.0.0.0/8', ''].join('\n') },
    { path: 'etc/docker/daemon.json', mode: 0o644, content: JSON.stringify(dockerConfig, null, 2) + '\n' },
    { path: 'etc/systemd/system/docker.service.d/http-proxy.conf', mode: 0o644, content: proxyConf },
    { path: 'etc/systemd/system/containerd.service.d/http-proxy.conf', mode: 0o644, content: proxyConf },
    { path: 'etc/systemd/system/kubelet.service', mode: 0o644, content: kubeletUnit },
    { path: 'etc/default/kubelet', mode: 0o644, content: `KUBELET_EXTRA_ARGS="${extraArgs.join(' \\\n  ')}"\n` },
    { path: 'etc/kubernetes/kubelet/config.yaml', mode: 0o644, content: kubeletConfig },
    { path: 'etc/kubernetes/kubelet.conf', mode: 0o644, content: kubeconfig(haproxyPort, 'pki/kubelet-client-ca.pem', 'kubelet', 'pki/kubelet.pem', 'pki/kubelet-key.pem') },
    { path: 'etc/kubernetes/admin/kubeconfig.yaml', mode: 0o644, content: kubeconfig(haproxyPort, 'pki/cluster-ca.pem', 'admin', 'pki/admin.pem', 'pki/admin-key.pem') },
    { path: 'etc/kubernetes/admin/pki/cluster-ca.pem', mode: 0o644, content: clusterCa },
    { path: 'etc/kubernetes/admin/pki/admin.pem', mode: 0o644, content: adminCert },
    { path: 'etc/kubernetes/admin/pki/admin-key.pem', mode: 0o644, content: adminKey },
    { path: 'etc/kubernetes/pki/kubelet-client-ca.pem', mode: 0o644, content: kubeletCa },
    { path: 'etc/kubernetes/pki/kubelet.pem', mode: 0o644, content: nodeCert },
    { path: 'etc/kubernetes/pki/kubelet-key.pem', mode: 0o644, content: nodeKey },
    { path: 'etc/kubernetes/admin.conf', mode: 0o644, content: kubeadm ? kubeconfig(haproxyPort, '/etc/kubernetes/admin/pki/cluster-ca.pem', 'admin', '/etc/kubernetes/admin/pki/admin.pem', '/etc/kubernetes/admin/pki/admin-key.pem') : '' },
    { path: 'var/lib/kubelet/config.yaml', mode: 0o644, content: kubeadm ? stringifyYaml(dataAt(design.require('armada/Chart/v1', 'kubernetes-kubeadm'), 'values.kubelet.config') ?? {}) : '' },
    { path: 'etc/promenade/haproxy/haproxy.cfg', mode: 0o644, content: haproxyCfg },
    { path: 'etc/apt/sources.list.d/promenade-sources.list', mode: 0o644, content: common.repositories.map((r) => `${r}\n`).join('') },
    { path: 'etc/apt/sources.list.d/promenade-join-sources.list', mode: 0o644, content: join.repositories.map((r) => `${r}\n`).join('') },
    { path: 'etc/kubernetes/manifests/.placeholder', mode: 0o644, content: '# static pod manifests of this node\n' },
    { path: 'usr/local/bin/haproxy', mode: 0o755, content: haproxyWrapper(haproxyImage) },
    { path: 'usr/local/bin/helm', mode: 0o755, content: helmWrapper(helmImage) },
    { path: 'usr/local/bin/promenade-teardown', mode: 0o755, content: TEARDOWN },
    { path: 'usr/local/bin/debug-report.sh', mode: 0o755, content: DEBUG_REPORT }
  ]
  files.push(...await hostSystemFiles(hostSystem, remote))
  return files
}

/** Everything the script needs from the design and parameters, checked before any text is produced. */
export async function buildJoinScript (
  documents: DesignDocument[],
  params: JoinParams,
  joinIps: string[],
  options: { remote?: RemoteFiles, now?: Date, encrypt?: (payload: Buffer) => Promise<Buffer> } = {}
): Promise<string> {
  if (documents.some((d) => d.schema === 'promenade/KubernetesNode/v1')) {
    throw new DesignError('Existing KubernetesNode documents found', 'ExistingKubernetesNodeDocumentError')
  }
  // the node's own configuration: everything but Genesis, plus this node's document (spec §6.2 step 6)
  const design = indexDesign([...documents.filter((d) => d.schema !== 'promenade/Genesis/v1'), nodeDocument(params, joinIps)])
  // spec §6.10: `scripts.join: {gpg: {}}` asks for a gpg-encrypted payload, which the node decrypts with the
  // passphrase in its own PROMENADE_ENCRYPTION_KEY
  const method = dataAt(design.find('promenade/EncryptionPolicy/v1'), 'scripts.join')
  const encrypted = method !== undefined && method !== null
  if (encrypted) {
    if (!isObject(method) || Object.keys(method).join() !== 'gpg') throw new EncryptionError(`The design asks for join-script encryption by ${JSON.stringify(method)}; only {gpg: {}} is known`)
    if (options.encrypt === undefined) throw new EncryptionError('The design asks for an encrypted join script, but encryption is not available here: no passphrase is configured or gpg is not installed')
  }
  const hostSystem = design.require('promenade/HostSystem/v1')
  const network = design.require('promenade/KubernetesNetwork/v1')
  let archive: string
  try {
    const payload = await tarGz(await payloadFiles(design, params, joinIps, options.remote), options.now)
    archive = (encrypted && options.encrypt !== undefined ? await options.encrypt(payload) : payload).toString('base64')
  } catch (error) {
    if (error instanceof ArchiveError) throw new DesignError(`HostSystem files: ${error.message}`)
    throw error
  }
  const common = packagesOf(hostSystem, 'common')
  const join = packagesOf(hostSystem, 'join')
  const keys = [...common.keys, ...join.keys]
  const packages = [...common.packages, ...join.packages]
  const units = record(dataAt(hostSystem, 'systemd_units'))
  Object.keys(units).forEach((unit, i) => systemdUnit(hostSystem, i, unit))
  // `--` as well: whatever follows it is a unit, never an option
  const unitCommands = ['enable', 'start', 'stop', 'disable', 'mask'].flatMap((action) =>
    Object.entries(units).filter(([, flags]) => record(flags)[action] === true).map(([unit]) => `systemctl ${action} -- ${shellQuote(unit)}`))
  const proxyUrl = proxyUrlOf(network)
  const noProxy = noProxyOf(network, proxyUrl, clusterDomainOf(network, params.dynamicLabels.includes('kubeadm=enabled')))
  const dnsChecks = dnsNames(network, 'dns.bootstrap_validation_checks')
  const lines: string[] = [
    '#!/usr/bin/env bash',
    `# Join script for node ${params.hostname}, generated by the Slipway bootstrap service.`,
    'set -e',
    'if [ "$(id -u)" -ne 0 ]; then',
    '  echo "This script must be run as root." >&2',
    '  exit 1',
    'fi',
    'set -x',
    'export KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml',
    `NODE_NAME=${shellQuote(params.hostname)}`,
    `DNS_CHECKS=(${dnsChecks.map(shellQuote).join(' ')})`,
    `DYNAMIC_LABELS=(${params.dynamicLabels.map(shellQuote).join(' ')})`,
    `APT_PACKAGES=(${packages.map(shellQuote).join(' ')})`,
    'APT_INSTALL_TIMEOUT=${APT_INSTALL_TIMEOUT:-1800}',
    '',
    'log () {',
    '  echo "$(date) $*" >&2',
    '}',
    '',
    'fail () {',
    '  docker info || true',
    '  docker ps -a || true',
    '  for container in $(docker ps -aq --filter status=exited); do',
    '    docker inspect "$container" || true',
    '    docker logs "$container" || true',
    '  done',
    '  kubectl --request-timeout 10s get nodes || true',
    '  kubectl --request-timeout 10s get pods --all-namespaces -o wide || true',
    '  exit 1',
    '}',
    '',
    'wait_for_node_ready () {',
    '  local name=$1 deadline=$(( $(date +%s) + $2 ))',
    '  until [ "$(kubectl --request-timeout 10s get node "$name" -o jsonpath=\'{.status.conditions[?(@.type=="Ready")].status}\' 2>/dev/null)" = True ]; do',
    '    if [ "$(date +%s)" -gt "$deadline" ]; then log "node $name did not become Ready"; fail; fi',
    '    sleep 15',
    '  done',
    '  local check',
    '  for check in "${DNS_CHECKS[@]}"; do',
    '    until [ -n "$(dig +short "$check")" ]; do',
    '      if [ "$(date +%s)" -gt "$deadline" ]; then log "name $check does not resolve"; fail; fi',
    '      sleep 15',
    '    done',
    '  done',
    '}',
    '',
    'register_labels () {',
    '  local name=$1 deadline=$(( $(date +%s) + $2 ))',
    '  shift 2',
    '  until kubectl --request-timeout 10s label node "$name" --overwrite "$@"; do',
    '    if [ "$(date +%s)" -gt "$deadline" ]; then log "could not label node $name"; fail; fi',
    '    sleep 15',
    '  done',
    '}',
    ''
  ]
  if (!params.leaveKubectl) {
    lines.push(
      'remove_admin_credentials () {',
      '  rm -rf /etc/kubernetes/admin /usr/local/bin/kubectl',
      '}',
      'trap remove_admin_credentials EXIT',
      ''
    )
  }
  lines.push(
    'if [ "$(hostname)" != "$NODE_NAME" ]; then',
    '  echo "node hostname must match the Kubernetes node name" >&2',
    '  exit 1',
    'fi',
    '',
    'systemctl disable systemd-resolved.service || true',
    'systemctl stop systemd-resolved.service || true',
    'systemctl mask systemd-resolved.service || true',
    'if [ -L /etc/resolv.conf ]; then',
    '  rm -f /etc/resolv.conf',
    '  touch /etc/resolv.conf',
    'fi',
    'mkdir -p /etc/etcd /etc/kubernetes /var/lib/etcd /var/log/kubernetes',
    'chmod 700 /etc/etcd /etc/kubernetes /var/lib/etcd /var/log/kubernetes',
    '',
    'set +x',
    'log "unpacking the node payload"',
    ...(encrypted
      ? [
          'DECRYPTION_KEY="${PROMENADE_ENCRYPTION_KEY:?set PROMENADE_ENCRYPTION_KEY to the passphrase of the encrypted payload}"',
          `echo '${archive}' | base64 -d | /usr/bin/gpg --decrypt --batch --quiet --pinentry-mode loopback --passphrase "$DECRYPTION_KEY" | tar -zxv -C / | tee /etc/promenade-manifest`
        ]
      : [`echo '${archive}' | base64 -d | cat | tar -zxv -C / | tee /etc/promenade-manifest`]),
    'set -x',
    '',
    'mkdir -p /etc/bash_completion.d',
    'kubectl completion bash > /etc/bash_completion.d/kubectl',
    'chmod -R go-rwx /etc/etcd /etc/kubernetes /var/lib/etcd /var/log/kubernetes',
    ''
  )
  for (const key of keys) {
    // the key text travels base64-encoded: no here-doc terminator or quote inside it can end the shell word
    lines.push(`echo ${shellQuote(Buffer.from(key).toString('base64'))} | base64 -d | apt-key add -`)
  }
  lines.push(
    '',
    'swapoff -a',
    "sed -i '/\\bswap\\b/d' /etc/fstab",
    '',
    `export http_proxy=${shellQuote(proxyUrl)}`,
    `export https_proxy=${shellQuote(proxyUrl)}`,
    `export no_proxy=${shellQuote(noProxy)}`,
    'if [ -n "$http_proxy" ]; then',
    '  printf \'Acquire::http::proxy "%s";\\nAcquire::https::proxy "%s";\\n\' "$http_proxy" "$https_proxy" > /etc/apt/apt.conf.d/50proxyconf',
    'fi',
    '',
    'apt_deadline=$(( $(date +%s) + APT_INSTALL_TIMEOUT ))',
    'while apt-get update 2>&1 | grep -q "W: Failed to fetch"; do',
    '  if [ "$(date +%s)" -gt "$apt_deadline" ]; then log "apt-get update keeps failing"; exit 1; fi',
    '  sleep 10',
    'done',
    'if [ "${#APT_PACKAGES[@]}" -gt 0 ]; then',
    '  until DEBIAN_FRONTEND=noninteractive apt-get install -o Dpkg::Options::=--force-confold -y --no-install-recommends -- "${APT_PACKAGES[@]}"; do',
    '    if [ "$(date +%s)" -gt "$apt_deadline" ]; then log "package installation timed out"; exit 1; fi',
    '    sleep 10',
    '  done',
    'fi',
    '',
    'chmod 0600 /etc/systemd/system/kubelet.service',
    'systemctl daemon-reload',
    ...unitCommands,
    'if systemctl -q is-enabled docker 2>/dev/null; then systemctl restart docker || true; fi',
    'if systemctl -q is-enabled containerd 2>/dev/null; then systemctl restart containerd || true; fi',
    '',
    '/usr/local/bin/haproxy &',
    'sleep 10',
    'systemctl enable --now kubelet',
    '',
    'wait_for_node_ready "$NODE_NAME" 3600',
    'if [ "${#DYNAMIC_LABELS[@]}" -gt 0 ]; then',
    '  register_labels "$NODE_NAME" 3600 "${DYNAMIC_LABELS[@]}"',
    'fi',
    '',
    'sleep 60',
    '# shellcheck disable=SC2046',
    'wait $(jobs -p)',
    'log "finished join process"',
    ''
  )
  return lines.join('\n')
}
