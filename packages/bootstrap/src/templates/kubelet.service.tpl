[Unit]
Description=Kubernetes worker process
Requires=network-online.target
After=network-online.target containerd.service

[Service]
Environment="KUBELET_KUBECONFIG_ARGS={{ kubeconfig_args }}"
Environment="KUBELET_CONFIG_ARGS=--config={{ config_file }}"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
EnvironmentFile=-/etc/default/kubelet
ExecStart=/usr/local/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
Restart=always
StartLimitInterval=0
RestartSec=10
KillMode=process

[Install]
WantedBy=multi-user.target
