// Starts a real Kubernetes API server for Slipway's tests: etcd and kube-apiserver (built by bin/build.sh) on
// 127.0.0.1 and free ports, in a temporary folder of their own holding a generated CA, serving certificate,
// service-account key pair and a static token file of three identities. Authorization is RBAC alone: the bootstrap
// identity is bound to a role that may only get and patch nodes. Nodes are plain objects created by the admin (no
// kubelet runs). close() stops both process groups by PID and removes the folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve as resolvePath } from 'node:path'
import { freePort } from '@slipway/common/ports'
import { startGroup, stopGroup, waitForLine, type GroupProcess } from '@slipway/common/process-group'
import { runScript } from '@slipway/common/script'
import { createKubeApi, type KubeApi } from './api.ts'
import { newIdentities, writeKubeconfig, writePki, writeTokenFile, BOOTSTRAP_USER, type Identities } from './pki.ts'
import { grantBootstrap, waitGranted, waitReady } from './ready.ts'

export const PACKAGE_ROOT = resolvePath(import.meta.dirname, '..')

/** This machine cannot build the real API server (no Go, no module proxy): the reason, for a visible skip. */
export class KubernetesUnavailableError extends Error { override name = 'KubernetesUnavailableError' }

export interface Built { bin: string, versions: string[] }

/** Runs bin/build.sh (seconds when already built) and answers the folder of the binaries and what was said. */
export async function buildKubernetes (output: (line: string) => void = () => {}): Promise<Built> {
  const { answer, said } = await runScript(join(PACKAGE_ROOT, 'bin', 'build.sh'), [], {
    name: 'kubernetes build',
    output,
    unavailable: (reason) => new KubernetesUnavailableError(reason ?? 'kubernetes build: skipped')
  })
  return { bin: answer, versions: said }
}

export interface NodeSpec {
  name: string
  labels?: Record<string, string>
  /** status.addresses InternalIP (the join scripts read it), then Hostname. */
  internalIp?: string
  /** The whole status, as a kubelet would report it (instead of internalIp). */
  status?: Record<string, unknown>
  /**
   * Without the not-ready taint the API server puts on every new node: what the node lifecycle controller (not run
   * here) does once a node reports Ready.
   */
  ready?: boolean
}

export interface KubernetesOptions {
  output?: (process: 'build' | 'etcd' | 'kube-apiserver', line: string) => void
  /** Bound on etcd and the API server becoming ready, once built (default 120 s). */
  startTimeoutMs?: number
}

export interface Kubernetes {
  /** https://127.0.0.1:<port> */
  server: string
  /** PEM of the CA that signed the serving certificate. */
  ca: string
  caFile: string
  identities: Identities
  /** The admin's client (TLS trusting the CA). */
  api: KubeApi
  /** Milliseconds from etcd spawned to the API server ready with the bootstrap role in force. */
  startMs: number
  pids: () => { etcd?: number | undefined, apiserver?: number | undefined }
  /**
   * Writes a kubeconfig for one of the identities (CA by relative path) into the server's folder and answers its
   * path; `token` puts another token in its place (one the server does not know, say).
   */
  kubeconfig: (who: keyof Identities, options?: { file?: string, token?: string }) => string
  createNode: (node: NodeSpec) => Promise<void>
  deleteNode: (name: string) => Promise<void>
  close: () => Promise<void>
}

export async function startKubernetes (options: KubernetesOptions = {}): Promise<Kubernetes> {
  const output = options.output ?? (() => {})
  const { bin } = await buildKubernetes((line) => { output('build', line) })
  const timeoutMs = options.startTimeoutMs ?? 120_000
  const dir = mkdtempSync(join(tmpdir(), 'slipway-kube-'))
  const started: GroupProcess[] = []
  let api: KubeApi | undefined
  async function close (): Promise<void> {
    await api?.close()
    // the API server first: etcd going away under it only makes it complain
    for (const group of [...started].reverse()) await stopGroup(group)
    started.length = 0
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const begun = Date.now()
    const pki = await writePki(dir)
    const identities = newIdentities()
    writeTokenFile(join(dir, 'tokens.csv'), identities)

    const etcd = startGroup(join(bin, 'etcd'), ['--data-dir', join(dir, 'etcd'), '--client-port', '0', '--peer-port', '0'],
      { name: 'etcd', output: (line) => { output('etcd', line) } })
    started.push(etcd)
    const etcdUrl = (await waitForLine(etcd, /^etcd: serving (http:\/\/\S+)$/, timeoutMs))[1] ?? ''

    // the API server takes a port number and cannot report one it picked itself
    const port = await freePort('127.0.0.1')
    const apiserver = startGroup(join(bin, 'kube-apiserver'), [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      // no Service endpoints for the API server itself: there are no pods to reach it, and a loopback address
      // would be refused for them
      '--endpoint-reconciler-type=none',
      `--secure-port=${port}`,
      `--cert-dir=${join(dir, 'certs')}`,
      `--tls-cert-file=${pki.serverCert}`,
      `--tls-private-key-file=${pki.serverKey}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      // no controller-manager runs here to lift the finalizer this plugin puts on every PersistentVolumeClaim: a
      // deleted claim (the chart's, on uninstall) would stay terminating for ever
      '--disable-admission-plugins=StorageObjectInUseProtection',
      `--service-account-key-file=${pki.serviceAccountPub}`,
      `--service-account-signing-key-file=${pki.serviceAccountKey}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      '--service-cluster-ip-range=10.96.0.0/24',
      '--profiling=false',
      '--v=0'
    ], { name: 'kube-apiserver', output: (line) => { output('kube-apiserver', line) } })
    started.push(apiserver)
    const server = `https://127.0.0.1:${port}`
    const ca = readFileSync(pki.caCert, 'utf8')
    api = createKubeApi(server, ca)
    const deadline = begun + timeoutMs
    await waitReady(api, identities.admin.token, apiserver, deadline)
    await grantBootstrap(api, identities.admin.token, BOOTSTRAP_USER)
    await waitGranted(api, identities, deadline)
    const startMs = Date.now() - begun
    const adminApi = api

    return {
      server,
      ca,
      caFile: pki.caCert,
      identities,
      api: adminApi,
      startMs,
      pids: () => ({ etcd: etcd.child.pid, apiserver: apiserver.child.pid }),
      kubeconfig (who, { file = `kubeconfig-${who}.yaml`, token = identities[who].token } = {}) {
        const path = join(dir, file)
        writeKubeconfig(path, { server, caFile: 'ca.crt', token, user: identities[who].user })
        return path
      },
      async createNode (node) {
        const body = {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: node.name, labels: node.labels ?? {} },
          status: node.status ?? {
            addresses: node.internalIp === undefined
              ? []
              : [{ type: 'InternalIP', address: node.internalIp }, { type: 'Hostname', address: node.name }]
          }
        }
        const token = identities.admin.token
        const answer = await adminApi.call('POST', '/api/v1/nodes', { token, body })
        if (answer.status !== 201) throw new Error(`creating node ${node.name} answered ${answer.status}: ${answer.text}`)
        if (node.ready !== true) return
        const untainted = await adminApi.call('PATCH', `/api/v1/nodes/${node.name}`, {
          token, body: { spec: { taints: null } }, contentType: 'application/merge-patch+json'
        })
        if (untainted.status !== 200) throw new Error(`untainting node ${node.name} answered ${untainted.status}: ${untainted.text}`)
      },
      async deleteNode (name) {
        const answer = await adminApi.call('DELETE', `/api/v1/nodes/${name}`, { token: identities.admin.token })
        if (answer.status !== 200 && answer.status !== 404) {
          throw new Error(`deleting node ${name} answered ${answer.status}: ${answer.text}`)
        }
      },
      close
    }
  } catch (error) {
    await close()
    throw error
  }
}
