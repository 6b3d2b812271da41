// The helper scripts a join installs on the node (spec/bootstrap.md §6.8): haproxy and helm run from their images,
// the teardown that removes the node from the cluster, and the debug report for support.
import { shellQuote } from './shell.ts'

export function haproxyWrapper (image: string): string {
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

export function helmWrapper (image: string): string {
  return `#!/usr/bin/env bash
# Runs helm from its image with host networking and the admin kubeconfig.
set -eu
IMAGE=${shellQuote(image)}
exec docker run --rm --net host -v /etc/kubernetes/admin:/etc/kubernetes/admin:ro -e KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml -v "$(pwd)":/target -w /target "$IMAGE" helm "$@"
`
}

export const TEARDOWN = `#!/usr/bin/env bash
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

export const DEBUG_REPORT = `#!/usr/bin/env bash
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
