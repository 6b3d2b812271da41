// The join script (spec/bootstrap.md §6.4–6.8): the node's document, the files it needs packed in a
// tar.gz, and a bash script from our own template. Every value that reaches shell text is quoted.
/* eslint-disable no-template-curly-in-string -- the script template holds bash ${…} expansions, not JS templates */
import { stringify as stringifyYaml } from 'yaml'
import { DesignError, dataAt, indexDesign, requireDataAt, type DesignDocument, type DesignIndex } from './documents.ts'
import type { JoinParams } from './join-params.ts'
import { ArchiveError, tarGz, tarMember, type TarEntry } from './tar.ts'

/** Encryption was asked for by the design but cannot be done here (500, spec §6.10). */
export class EncryptionError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'EncryptionError'
  }
}

/** Single-quotes a value for bash: nothing inside can expand or end the word. */
export function shellQuote (value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`
}

function record (value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {}
}

function pem (design: DesignIndex, schema: string, name: string): string {
  const data = design.require(schema, name).data
  if (typeof data !== 'string' || data === '') throw new DesignError(`Document ${schema} ${name} has no PEM data`)
  return data
}

function isObject (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
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
  const required = Object.entries(record(dataAt(hostSystem, `${base}.required`))).map(([key, value]) => {
    if (typeof value !== 'string') throw new DesignError(`${where(hostSystem, `${base}.required.${key}`)} must be a package name`)
    return value
  })
  return {
    // keys travel base64-encoded and packages single-quoted, so any text is safe there; sources are lines of a file
    keys: textList('keys'),
    repositories: lines(hostSystem, `${base}.repositories`),
    packages: [...required, ...textList('additional')]
  }
}

// a value written into a config line (resolv.conf, chrony.conf, /etc/hosts, haproxy.cfg, apt sources):
// one word, so that no newline, quote or blank can start another directive
const WORD = /^[^\s"'\\`$;]+$/
const LINE = /^[^\n\r\0"\\]*$/
const DNS_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/

function where (doc: DesignDocument, path: string): string {
  return `Document ${doc.schema} ${doc.metadata.name}: data.${path}`
}

/** A single word (an address, a host name, a port) from the design, or a DesignError naming its place. */
function word (doc: DesignDocument, path: string, value: unknown): string {
  if ((typeof value !== 'string' && typeof value !== 'number') || !WORD.test(String(value))) {
    throw new DesignError(`${where(doc, path)} must be a single word without blanks, quotes or control characters`)
  }
  return String(value)
}

function words (doc: DesignDocument, path: string): string[] {
  const value = dataAt(doc, path)
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new DesignError(`${where(doc, path)} must be a list`)
  return value.map((item, i) => word(doc, `${path}[${i}]`, item))
}

/** A list of strings that are written as whole lines (apt repositories, kubelet arguments). */
function lines (doc: DesignDocument, path: string): string[] {
  const value = dataAt(doc, path)
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new DesignError(`${where(doc, path)} must be a list`)
  return value.map((item, i) => {
    if (typeof item !== 'string' || !LINE.test(item)) throw new DesignError(`${where(doc, `${path}[${i}]`)} must be a string on one line, without quotes or backslashes`)
    return item
  })
}

function port (doc: DesignDocument, path: string): number {
  const value = requireDataAt(doc, path)
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) throw new DesignError(`${where(doc, path)} must be a port number (1-65535)`)
  return value
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

/** Bytes fetched from HostSystem `url` and `tar_url` sources, by URL (the route fetches them first). */
export type RemoteFiles = Map<string, Buffer>

const SOURCE_KEYS = ['content', 'symlink', 'url', 'tar_url'] as const

/** The URLs a design's HostSystem files are fetched from (spec §6.8); each must be http(s). */
export function remoteFileUrls (documents: DesignDocument[]): string[] {
  const hostSystem = documents.find((d) => d.schema === 'promenade/HostSystem/v1')
  const files = dataAt(hostSystem, 'files')
  const urls = new Set<string>()
  for (const [i, item] of (Array.isArray(files) ? files : []).entries()) {
    const file = record(item)
    for (const key of ['url', 'tar_url'] as const) {
      const value = file[key]
      if (value === undefined) continue
      if (typeof value !== 'string' || !/^https?:\/\/[^/\s]+/.test(value)) {
        throw new DesignError(`${where(hostSystem as DesignDocument, `files[${i}].${key}`)} must be an http(s) URL`)
      }
      urls.add(value)
    }
  }
  return [...urls]
}

/** HostSystem `files` as archive entries: content, symlink, a fetched url, or one member of a fetched tarball. */
async function hostSystemFiles (hostSystem: DesignDocument, remote: RemoteFiles): Promise<TarEntry[]> {
  const files = dataAt(hostSystem, 'files')
  if (files !== undefined && !Array.isArray(files)) throw new DesignError(`${where(hostSystem, 'files')} must be a list`)
  const entries: TarEntry[] = []
  for (const [i, item] of (files as unknown[] ?? []).entries()) entries.push(await hostSystemFile(hostSystem, item, i, remote))
  return entries
}

/** One HostSystem file as an archive entry; a tarball member is unpacked off the event loop. */
async function hostSystemFile (hostSystem: DesignDocument, item: unknown, i: number, remote: RemoteFiles): Promise<TarEntry> {
  const file = record(item)
  const at = (key: string): string => where(hostSystem, `files[${i}].${key}`)
  const path = file.path
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (typeof path !== 'string' || !path.startsWith('/') || path.split('/').includes('..') || /[\u0000-\u001f]/.test(path) || path === '/') {
    throw new DesignError(`${at('path')} must be an absolute file path without '..' or control characters`)
  }
  const mode = file.mode ?? 0o644
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > 0o7777) throw new DesignError(`${at('mode')} must be a file mode (0-4095, YAML 0755 is 493)`)
  const sources = SOURCE_KEYS.filter((key) => file[key] !== undefined)
  if (sources.length !== 1) throw new DesignError(`${where(hostSystem, `files[${i}]`)} (${path}) needs exactly one of content, symlink, url or tar_url`)
  const entry = { path: path.slice(1), mode }
  if (file.content !== undefined) {
    if (typeof file.content !== 'string') throw new DesignError(`${at('content')} must be a string`)
    return { ...entry, content: file.content }
  }
  if (file.symlink !== undefined) {
    if (typeof file.symlink !== 'string' || file.symlink === '') throw new DesignError(`${at('symlink')} must be a path`)
    return { ...entry, symlink: file.symlink }
  }
  const url = String(file.url ?? file.tar_url)
  const bytes = remote.get(url)
  if (bytes === undefined) throw new DesignError(`${at(file.url === undefined ? 'tar_url' : 'url')}: ${url} was not fetched`)
  if (file.url !== undefined) return { ...entry, content: bytes }
  if (typeof file.tar_path !== 'string' || file.tar_path === '') throw new DesignError(`${at('tar_path')} must name the member of ${url} to use`)
  let member: Buffer | undefined
  try {
    member = await tarMember(bytes, file.tar_path)
  } catch (error) {
    throw new DesignError(`${at('tar_url')}: ${url} is ${(error as Error).message}`)
  }
  if (member === undefined) throw new DesignError(`${at('tar_path')}: ${url} has no file ${file.tar_path}`)
  return { ...entry, content: member }
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
  const haproxyImage = word(hostSystem, 'images.haproxy', requireDataAt(hostSystem, 'images.haproxy'))
  const helmImage = String(dataAt(hostSystem, 'images.helm.helm') ?? '')
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

function haproxyWrapper (image: string): string {
  return `#!/usr/bin/env bash
# Runs a temporary haproxy in docker until the cluster's own haproxy static pod takes over.
set -u
IMAGE=${shellQuote(image)}
while true; do
  if systemctl -q is-active kubelet && [ -e /etc/kubernetes/manifests/haproxy.yaml ]; then
    docker rm -f haproxy >/dev/null 2>&1 || true
    exit 0
  fi
  if [ -z "$(docker ps -q --filter name=^haproxy$)" ]; then
    docker run --rm -d --net host -v /etc/promenade/haproxy:/usr/local/etc/haproxy:ro --name haproxy "$IMAGE" || true
  fi
  sleep 5
done
`
}

function helmWrapper (image: string): string {
  return `#!/usr/bin/env bash
# Runs helm from its image with host networking and the admin kubeconfig.
set -eu
IMAGE=${shellQuote(image)}
exec docker run --rm --net host -v /etc/kubernetes/admin:/etc/kubernetes/admin:ro -e KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml -v "$(pwd)":/target -w /target "$IMAGE" helm "$@"
`
}

const TEARDOWN = `#!/usr/bin/env bash
# Removes this node from the cluster: refuses unless at least two nodes are Ready.
set -eu
export KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml
NODE=$(hostname)
READY=$(kubectl get nodes --no-headers | awk '$2 == "Ready"' | wc -l)
if [ "$READY" -lt 2 ]; then echo "refusing: fewer than two Ready nodes" >&2; exit 1; fi
kubectl drain --ignore-daemonsets --delete-emptydir-data --force "$NODE"
for label in $(kubectl get node "$NODE" -o go-template='{{range $k, $v := .metadata.labels}}{{$k}} {{end}}'); do
  case "$label" in *kubernetes.io*) ;; *) kubectl label node "$NODE" "$label-" ;; esac
done
systemctl stop kubelet
systemctl disable kubelet
docker ps -aq | xargs -r docker rm -f
`

const DEBUG_REPORT = `#!/usr/bin/env bash
# Collects pod logs, objects and network state into a tarball for support.
set -u
export KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml
DIR=$(mktemp -d)
kubectl get pods --all-namespaces -o wide > "$DIR/pods.txt" 2>&1
kubectl get all --all-namespaces -o yaml > "$DIR/objects.yaml" 2>&1
iptables-save > "$DIR/iptables.txt" 2>&1
tar -czf "debug-$(hostname).tgz" -C "$DIR" .
rm -rf "$DIR"
`

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
  const unitCommands = ['enable', 'start', 'stop', 'disable', 'mask'].flatMap((action) =>
    Object.entries(units).filter(([, flags]) => record(flags)[action] === true).map(([unit]) => `systemctl ${action} ${shellQuote(unit)}`))
  const proxyUrl = proxyUrlOf(network)
  const noProxy = noProxyOf(network, proxyUrl, clusterDomainOf(network, params.dynamicLabels.includes('kubeadm=enabled')))
  const dnsChecks = words(network, 'dns.bootstrap_validation_checks')
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
    '  until DEBIAN_FRONTEND=noninteractive apt-get install -o Dpkg::Options::=--force-confold -y --no-install-recommends "${APT_PACKAGES[@]}"; do',
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
