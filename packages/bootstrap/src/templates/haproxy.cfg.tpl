global
  maxconn 10240

defaults
  mode tcp
  timeout connect 5000ms
  timeout client 24h
  timeout server 24h

frontend kubernetes
  bind *:{{ haproxy_port }}
  default_backend kubernetes-apiserver

backend kubernetes-apiserver
  option tcp-check
{{ servers }}
