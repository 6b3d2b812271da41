# managed by the Slipway bootstrap service
127.0.0.1 localhost
{{ external_ip }} {{ hostname }}.{{ domain }} {{ hostname }}
{{ entries }}
