#!/usr/bin/env bash
# Collects pod logs, objects and network state into a tarball for support.
set -u
export KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml
DIR=$(mktemp -d)
kubectl get pods --all-namespaces -o wide > "$DIR/pods.txt" 2>&1
kubectl get all --all-namespaces -o yaml > "$DIR/objects.yaml" 2>&1
iptables-save > "$DIR/iptables.txt" 2>&1
tar -czf "debug-$(hostname).tgz" -C "$DIR" .
rm -rf "$DIR"
