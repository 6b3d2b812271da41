  server s{{ ip }} {{ ip }}:{{ port }} check port {{ port }}
