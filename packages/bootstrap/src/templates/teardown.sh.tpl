#!/usr/bin/env bash
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
