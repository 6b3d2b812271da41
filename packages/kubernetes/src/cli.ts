// `npm run kubernetes -w @slipway/kubernetes`: builds (or finds built) and starts a throw-away API server, prints
// where it is and a kubeconfig for each identity, and stops it on Ctrl-C. KUBE_NODES=n1,n2 creates those nodes.
import { startKubernetes } from './kubernetes.ts'

const verbose = process.env.KUBE_VERBOSE === 'true'
const kube = await startKubernetes({
  output: (name, line) => { if (verbose || name === 'build') console.error(`${name}: ${line}`) }
})
for (const name of (process.env.KUBE_NODES ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '')) {
  await kube.createNode({ name, labels: { 'kubernetes.io/hostname': name } })
}
console.log(`kube-apiserver at ${kube.server} (ready in ${kube.startMs} ms; etcd pid ${kube.pids().etcd}, apiserver pid ${kube.pids().apiserver})`)
for (const who of ['admin', 'bootstrap', 'nobody'] as const) console.log(`${who}: KUBECONFIG=${kube.kubeconfig(who)}`)
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    kube.close().then(() => { process.exit(0) }, (error: unknown) => { console.error(error); process.exit(1) })
  })
}
