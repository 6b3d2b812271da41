#!/usr/bin/env bash
# Runs a temporary haproxy in docker until the cluster's own haproxy static pod takes over.
set -u
IMAGE={{ image }}
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
