options timeout:1 attempts:1
search {{ domain }}

nameserver {{ service_ip }}
{{ upstream_nameservers }}
