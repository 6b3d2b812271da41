// The join script, byte for byte: each case's script is compared with the one recorded in test/golden/ before the
// script's text moved into templates, so that no change of wording, quoting or order goes unnoticed. The payload's
// time is fixed and the encryptor is a stand-in, so each script is the same on every run.
// Recording again (only when a change of the script is meant): GOLDEN_RECORD=1 npx vitest run --project bootstrap join-golden
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { parseYamlDocuments } from '@slipway/common'
import { prepareLocalDesign, type DesignDocument } from '../../src/domain/documents.ts'
import { buildJoinScript } from '../../src/domain/join-script.ts'
import type { JoinParams } from '../../src/domain/join-params.ts'
import { tarGz } from '../../src/domain/tar.ts'
import { exampleDesign } from '../helpers/servers.ts'

const GOLDEN_DIR = resolve(import.meta.dirname, '../golden')
const NOW = new Date('2026-01-02T03:04:05Z')
const JOIN_IPS = ['192.168.77.10']

const PARAMS: JoinParams = {
  designRef: 'http://127.0.0.1:1/site.yaml',
  hostname: 'n1',
  ip: '192.168.77.11',
  externalIp: '127.0.0.1',
  domain: 'local',
  dynamicLabels: [],
  staticLabels: [],
  leaveKubectl: false
}

function example (): DesignDocument[] {
  return prepareLocalDesign(parseYamlDocuments(exampleDesign()))
}

/** The example design with the data of the first document of `schema` changed by `change`. */
function changed (documents: DesignDocument[], schema: string, change: (data: Record<string, unknown>) => void): DesignDocument[] {
  const at = documents.findIndex((d) => d.schema === schema)
  if (at < 0) throw new Error(`the design has no ${schema}`)
  const doc = structuredClone(documents[at] as DesignDocument)
  change(doc.data as Record<string, unknown>)
  return documents.map((d, i) => i === at ? doc : d)
}

const document = (schema: string, name: string, data: unknown): DesignDocument => ({
  schema,
  metadata: { schema: 'metadata/Document/v1', name, layeringDefinition: { abstract: false, layer: 'site' }, storagePolicy: 'cleartext' },
  data
})

/** A design with every optional part of the script in use: proxy, hosts, names to check, keys, packages, units. */
function fullDesign (): DesignDocument[] {
  let documents = changed(example(), 'promenade/KubernetesNetwork/v1', (data) => {
    data.proxy = { url: 'http://proxy.example.org:3128/%2F', additional_no_proxy: ['10.0.0.0/8', '.example.org'] }
    data.hosts_entries = [{ ip: '192.168.77.5', names: ['registry', 'registry.example.org'] }]
    ;(data.dns as Record<string, unknown>).bootstrap_validation_checks = ['kubernetes.default.svc.cluster.local', 'example.org']
    ;(data.dns as Record<string, unknown>).upstream_servers = ['8.8.8.8', '1.1.1.1']
    data.ntp = { servers: ['ntp1.example.org', 'ntp2.example.org'] }
  })
  documents = changed(documents, 'promenade/HostSystem/v1', (data) => {
    const packages = data.packages as Record<string, Record<string, unknown>>
    packages.join = {
      repositories: ['deb [arch=amd64] http://apt.example.org/extra jammy main'],
      keys: ["key with 'quotes' and $(dollars)\nand a second line\n"],
      required: { docker: 'docker.io:amd64=24.0.7-0ubuntu2~22.04.1' },
      additional: ['curl/jammy-backports', 'libstdc++6']
    }
    data.systemd_units = {
      'dev-disk-by\\x2dlabel-data.device': { start: true },
      'kube-cgroup': { enable: true, start: true },
      'apt-daily.timer': { stop: true, disable: true, mask: true }
    }
  })
  return documents
}

async function archive (): Promise<Buffer> {
  return await tarGz([{ path: 'srv/a.txt', mode: 0o644, content: 'from a tarball\n' }], NOW)
}

interface GoldenCase {
  name: string
  design: () => DesignDocument[]
  params?: Partial<JoinParams>
  remote?: () => Promise<Map<string, Buffer>>
  encrypt?: boolean
}

const CASES: GoldenCase[] = [
  { name: 'example-n1', design: example },
  {
    name: 'example-n2-labels-leave-kubectl',
    design: () => example().concat(
      document('deckhand/Certificate/v1', 'kubelet-n9', 'CERT n9'), document('deckhand/CertificateKey/v1', 'kubelet-n9', 'KEY n9')),
    params: {
      hostname: 'n9',
      ip: '10.1.2.3',
      externalIp: '10.9.9.9',
      domain: 'site.example.org',
      dynamicLabels: ['role=worker', 'example.org/zone=a-1', 'empty='],
      staticLabels: ['rack=r1', 'node-role.kubernetes.io/worker='],
      leaveKubectl: true
    }
  },
  { name: 'full', design: fullDesign },
  {
    name: 'kubeadm',
    design: () => [...example(), document('armada/Chart/v1', 'kubernetes-kubeadm', {
      values: { kubelet: { arguments: ['--v=2', '--max-pods=200'], config: { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', maxPods: 200 } } }
    })],
    params: { dynamicLabels: ['kubeadm=enabled', 'role=control'] }
  },
  {
    name: 'host-files',
    design: () => changed(example(), 'promenade/HostSystem/v1', (data) => {
      data.files = [
        { path: '/etc/motd', content: 'hello\n' },
        { path: '/usr/bin/link', symlink: '/usr/local/bin/kubectl' },
        { path: '/opt/fetched.bin', mode: 0o600, url: 'http://files.example.org/fetched.bin' },
        { path: '/opt/member.txt', tar_url: 'http://files.example.org/bundle.tgz', tar_path: 'srv/a.txt' }
      ]
    }),
    remote: async () => new Map([['http://files.example.org/fetched.bin', Buffer.from([0, 1, 2, 255])], ['http://files.example.org/bundle.tgz', await archive()]])
  },
  {
    name: 'encrypted',
    design: () => [...example(), document('promenade/EncryptionPolicy/v1', 'encryption-policy', { scripts: { join: { gpg: {} } } })],
    encrypt: true
  }
]

/** A stand-in for gpg: the same bytes each run, still unlike the plain payload. */
function reversed (payload: Readable): Readable {
  return Readable.from((async function * () {
    yield Buffer.concat([Buffer.from('ENCRYPTED:'), Buffer.concat(await payload.toArray() as Buffer[]).reverse()])
  })())
}

describe('the join script, byte for byte', () => {
  it.each(CASES)('$name is the recorded script', async ({ name, design, params, remote, encrypt }) => {
    const script = await buildJoinScript(await design(), { ...PARAMS, ...params }, JOIN_IPS, {
      now: NOW,
      remote: remote === undefined ? undefined : await remote(),
      encrypt: encrypt === true ? reversed : undefined
    }).then(async (stream) => Buffer.concat(await stream.toArray() as Buffer[]))
    const file = resolve(GOLDEN_DIR, `${name}.sh`)
    if (process.env.GOLDEN_RECORD === '1') writeFileSync(file, script)
    expect(script.toString()).toBe(readFileSync(file, 'utf8'))
  })
})
