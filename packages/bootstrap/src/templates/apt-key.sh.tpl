echo {{ key }} | base64 -d | apt-key add -
