#!/usr/bin/env bash
# Runs helm from its image with host networking and the admin kubeconfig.
set -eu
IMAGE={{ image }}
exec docker run --rm --net host -v /etc/kubernetes/admin:/etc/kubernetes/admin:ro -e KUBECONFIG=/etc/kubernetes/admin/kubeconfig.yaml -v "$(pwd)":/target -w /target "$IMAGE" helm "$@"
