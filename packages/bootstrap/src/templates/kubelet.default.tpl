KUBELET_EXTRA_ARGS="{{ args }}"
