// The join script: the node's own document, the files it needs packed in a tar.gz, and the bash script that unpacks
// them and joins the node, their text from our own templates (templates/*.tpl). Every value that reaches shell text
// is quoted, and every value passed to a command is checked against the syntax of what it names (design-values.ts).
import { Readable } from 'node:stream'
import { stringify as stringifyYaml } from 'yaml'
import { ApiError } from '@slipway/common'
import { DesignError, dataAt, indexDesign, requireDataAt, type DesignDocument, type DesignIndex } from './documents.ts'
import {
  debianPackage, DNS_NAME, dnsNames, imageRef, isObject, lines, port, record, systemdUnit, where, word, words
} from './design-values.ts'
import { hostSystemFiles } from './host-files.ts'
import type { RemoteFiles } from '../types.ts'
import type { JoinParams } from './join-params.ts'
import { ArchiveError, checkEntries, tarGzStream, type TarEntry } from './tar.ts'
import { DEBUG_REPORT, haproxyWrapper, helmWrapper, TEARDOWN } from './node-scripts.ts'
import { scriptChunks } from './script-stream.ts'
import { shellQuote } from './shell.ts'
import { fill, fillEach, templateLines } from '../templates/index.ts'

/** Stands for the payload archive while the script is filled; not base64, so never part of an archive. */
const ARCHIVE_MARK = '@@payload-archive@@'

/** Encryption was asked for by the design but cannot be done here: a 500, the service's own shortcoming. */
export class EncryptionError extends ApiError {
  constructor (reason: string) {
    super(500, 'Payload encryption error', reason, { errorType: 'EncryptionException' })
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

/** The KubernetesNode document Promenade builds for the joining node from the query and the join IPs. */
export function nodeDocument (params: JoinParams, joinIps: string[]): DesignDocument {
  return {
    schema: 'promenade/KubernetesNode/v1',
    metadata: {
      schema: 'metadata/Document/v1',
      name: params.hostname,
      layeringDefinition: { abstract: false, layer: 'site' },
      storagePolicy: 'cleartext'
    },
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
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
      throw new DesignError(`${where(hostSystem, `${base}.${path}`)} must be a list of strings`)
    }
    return value as string[]
  }
  const required = Object.entries(record(dataAt(hostSystem, `${base}.required`)))
    .map(([key, value]) => debianPackage(hostSystem, `${base}.required.${key}`, value))
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

/** no_proxy as the node uses it: the site's list, then the cluster's own names (as Promenade writes it). */
function noProxyOf (network: DesignDocument, proxyUrl: string, clusterDomain: string): string {
  if (proxyUrl === '') return ''
  return [
    ...words(network, 'proxy.additional_no_proxy'),
    '127.0.0.1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${clusterDomain}`
  ].join(',')
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
  if (typeof value !== 'string' || !DNS_NAME.test(value)) {
    throw new DesignError(`${where(network, 'dns.cluster_domain')} must be a DNS name`)
  }
  return value
}

/** The payload files for this node, in archive order (a later entry of the same path wins at extraction). */
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
  const kubeletCa = design.find('deckhand/CertificateAuthority/v1', 'kubelet') === undefined
    ? clusterCa
    : pem(design, 'deckhand/CertificateAuthority/v1', 'kubelet')
  const adminCert = pem(design, 'deckhand/Certificate/v1', 'admin')
  const adminKey = pem(design, 'deckhand/CertificateKey/v1', 'admin')
  const nodeCert = pem(design, 'deckhand/Certificate/v1', `kubelet-${params.hostname}`)
  const nodeKey = pem(design, 'deckhand/CertificateKey/v1', `kubelet-${params.hostname}`)
  if (joinIps.length === 0) throw new DesignError('Could not find join IPs')

  const proxyUrl = proxyUrlOf(network)
  const noProxy = noProxyOf(network, proxyUrl, clusterDomain)
  const proxyConf = fill('http-proxy.conf', {
    http_proxy: systemdValue(proxyUrl),
    https_proxy: systemdValue(proxyUrl),
    no_proxy: systemdValue(noProxy)
  })

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
    if (/["\\\n\r$`]/.test(arg)) {
      throw new DesignError(`Kubelet argument ${JSON.stringify(arg)} contains characters that cannot be written safely`)
    }
  }
  const kubeletConfig = kubeadm
    ? ''
    : stringifyYaml(deepMerge({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      authentication: {
        anonymous: { enabled: false },
        webhook: { enabled: true },
        x509: { clientCAFile: '/etc/kubernetes/pki/kubelet-client-ca.pem' }
      },
      authorization: { mode: 'AlwaysAllow' },
      clusterDNS: [serviceIp],
      clusterDomain,
      staticPodPath: '/etc/kubernetes/manifests',
      tlsCertFile: '/etc/kubernetes/pki/kubelet.pem',
      tlsPrivateKeyFile: '/etc/kubernetes/pki/kubelet-key.pem'
    }, record(dataAt(kubelet, 'config_file_overrides'))))
  const kubeletUnit = fill('kubelet.service', {
    kubeconfig_args: kubeadm
      ? '--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf'
      : '--kubeconfig=/etc/kubernetes/kubelet.conf',
    config_file: kubeadm ? '/var/lib/kubelet/config.yaml' : '/etc/kubernetes/kubelet/config.yaml'
  })
  const haproxyCfg = fill('haproxy.cfg', {
    haproxy_port: String(haproxyPort),
    servers: fillEach('haproxy-server.cfg', joinIps.map((ip) => ({ ip, port: String(apiserverPort) })))
  })
  const common = packagesOf(hostSystem, 'common')
  const join = packagesOf(hostSystem, 'join')

  const files: TarEntry[] = [
    {
      path: 'etc/hosts',
      mode: 0o644,
      content: fill('hosts', { external_ip: params.externalIp, hostname: params.hostname, domain: params.domain, entries: hostsEntries })
    },
    {
      path: 'etc/resolv.conf',
      mode: 0o644,
      content: fill('resolv.conf', {
        domain: params.domain,
        service_ip: serviceIp,
        upstream_nameservers: fillEach('nameserver.conf', words(network, 'dns.upstream_servers').map((address) => ({ address })))
      })
    },
    {
      path: 'etc/chrony/chrony.conf',
      mode: 0o644,
      content: fill('chrony.conf', { servers: fillEach('ntp-server.conf', words(network, 'ntp.servers').map((address) => ({ address }))) })
    },
    { path: 'etc/docker/daemon.json', mode: 0o644, content: JSON.stringify(dockerConfig, null, 2) + '\n' },
    { path: 'etc/systemd/system/docker.service.d/http-proxy.conf', mode: 0o644, content: proxyConf },
    { path: 'etc/systemd/system/containerd.service.d/http-proxy.conf', mode: 0o644, content: proxyConf },
    { path: 'etc/systemd/system/kubelet.service', mode: 0o644, content: kubeletUnit },
    // one argument a line, each line but the last continued with a backslash
    { path: 'etc/default/kubelet', mode: 0o644, content: fill('kubelet.default', { args: extraArgs.join(' \\\n  ') }) },
    { path: 'etc/kubernetes/kubelet/config.yaml', mode: 0o644, content: kubeletConfig },
    {
      path: 'etc/kubernetes/kubelet.conf',
      mode: 0o644,
      content: kubeconfig(haproxyPort, 'pki/kubelet-client-ca.pem', 'kubelet', 'pki/kubelet.pem', 'pki/kubelet-key.pem')
    },
    {
      path: 'etc/kubernetes/admin/kubeconfig.yaml',
      mode: 0o644,
      content: kubeconfig(haproxyPort, 'pki/cluster-ca.pem', 'admin', 'pki/admin.pem', 'pki/admin-key.pem')
    },
    { path: 'etc/kubernetes/admin/pki/cluster-ca.pem', mode: 0o644, content: clusterCa },
    { path: 'etc/kubernetes/admin/pki/admin.pem', mode: 0o644, content: adminCert },
    { path: 'etc/kubernetes/admin/pki/admin-key.pem', mode: 0o644, content: adminKey },
    { path: 'etc/kubernetes/pki/kubelet-client-ca.pem', mode: 0o644, content: kubeletCa },
    { path: 'etc/kubernetes/pki/kubelet.pem', mode: 0o644, content: nodeCert },
    { path: 'etc/kubernetes/pki/kubelet-key.pem', mode: 0o644, content: nodeKey },
    {
      path: 'etc/kubernetes/admin.conf',
      mode: 0o644,
      content: kubeadm
        ? kubeconfig(
          haproxyPort, '/etc/kubernetes/admin/pki/cluster-ca.pem', 'admin',
          '/etc/kubernetes/admin/pki/admin.pem', '/etc/kubernetes/admin/pki/admin-key.pem'
        )
        : ''
    },
    {
      path: 'var/lib/kubelet/config.yaml',
      mode: 0o644,
      content: kubeadm ? stringifyYaml(dataAt(design.require('armada/Chart/v1', 'kubernetes-kubeadm'), 'values.kubelet.config') ?? {}) : ''
    },
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

/**
 * The join script as a stream. Everything the script needs from the design and parameters is checked, and every
 * payload file resolved, before the stream is made: what can be refused is refused before the first byte. The payload
 * is then written as the stream is read — the archive, its compression, its encryption and its base64 a chunk at a
 * time — so a join holds no whole payload. A payload file that fails while it is read fails the stream.
 */
export async function buildJoinScript (
  documents: DesignDocument[],
  params: JoinParams,
  joinIps: string[],
  options: { remote?: RemoteFiles, now?: Date, encrypt?: ((payload: Readable) => Readable) | undefined } = {}
): Promise<Readable> {
  if (documents.some((d) => d.schema === 'promenade/KubernetesNode/v1')) {
    throw new DesignError('Existing KubernetesNode documents found', 'ExistingKubernetesNodeDocumentError')
  }
  // the node's own configuration: everything but Genesis, plus this node's document (other nodes' are left out)
  const design = indexDesign([...documents.filter((d) => d.schema !== 'promenade/Genesis/v1'), nodeDocument(params, joinIps)])
  // `scripts.join: {gpg: {}}` asks for a gpg-encrypted payload, which the node decrypts with the
  // passphrase in its own PROMENADE_ENCRYPTION_KEY
  const method = dataAt(design.find('promenade/EncryptionPolicy/v1'), 'scripts.join')
  const encrypted = method !== undefined && method !== null
  if (encrypted) {
    if (!isObject(method) || Object.keys(method).join() !== 'gpg') {
      throw new EncryptionError(`The design asks for join-script encryption by ${JSON.stringify(method)}; only {gpg: {}} is known`)
    }
    if (options.encrypt === undefined) {
      throw new EncryptionError(
        'The design asks for an encrypted join script, but encryption is not available here: no passphrase is configured or gpg is not installed'
      )
    }
  }
  const hostSystem = design.require('promenade/HostSystem/v1')
  const network = design.require('promenade/KubernetesNetwork/v1')
  let entries: TarEntry[]
  try {
    entries = await payloadFiles(design, params, joinIps, options.remote)
    checkEntries(entries)
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
  // each action in this order, for each unit that asks for it; `--` before the unit: whatever follows is a unit,
  // never an option
  const unitCommands = ['enable', 'start', 'stop', 'disable', 'mask'].flatMap((action) =>
    Object.entries(units).filter(([, flags]) => record(flags)[action] === true).map(([unit]) => ({ action, unit: shellQuote(unit) })))
  const proxyUrl = proxyUrlOf(network)
  const noProxy = noProxyOf(network, proxyUrl, clusterDomainOf(network, params.dynamicLabels.includes('kubeadm=enabled')))
  const dnsChecks = dnsNames(network, 'dns.bootstrap_validation_checks')
  const text = fill('join.sh', {
    hostname: params.hostname,
    node_name: shellQuote(params.hostname),
    dns_checks: dnsChecks.map(shellQuote).join(' '),
    dynamic_labels: params.dynamicLabels.map(shellQuote).join(' '),
    apt_packages: packages.map(shellQuote).join(' '),
    remove_admin_credentials: params.leaveKubectl ? [] : templateLines('remove-admin-credentials.sh'),
    // the payload is base64: nothing in it can end the single-quoted word it is written in
    unpack: templateLines(encrypted ? 'unpack-gpg.sh' : 'unpack.sh', { archive: ARCHIVE_MARK }),
    // the key text travels base64-encoded: no here-doc terminator or quote inside it can end the shell word
    apt_keys: fillEach('apt-key.sh', keys.map((key) => ({ key: shellQuote(Buffer.from(key).toString('base64')) }))),
    http_proxy: shellQuote(proxyUrl),
    https_proxy: shellQuote(proxyUrl),
    no_proxy: shellQuote(noProxy),
    unit_commands: fillEach('systemd-unit.sh', unitCommands)
  })
  const at = text.indexOf(ARCHIVE_MARK)
  const head = Buffer.from(text.slice(0, at))
  const tail = Buffer.from(text.slice(at + ARCHIVE_MARK.length))
  const now = options.now
  const encrypt = encrypted ? options.encrypt : undefined
  return Readable.from(scriptChunks(head, () => {
    const archive = tarGzStream(entries, now)
    return encrypt === undefined ? archive : encrypt(archive)
  }, tail), { objectMode: false })
}
