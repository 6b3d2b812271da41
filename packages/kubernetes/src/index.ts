// @slipway/kubernetes: a real Kubernetes API server (kube-apiserver and etcd built from source) as a test peer.
export { buildKubernetes, startKubernetes, KubernetesUnavailableError, PACKAGE_ROOT } from './kubernetes.ts'
export type { Built, Kubernetes, KubernetesOptions, NodeSpec } from './kubernetes.ts'
export { createKubeApi, type KubeAnswer, type KubeApi } from './api.ts'
export { BOOTSTRAP_USER, type Identities } from './pki.ts'
export { BOOTSTRAP_ROLE } from './ready.ts'
