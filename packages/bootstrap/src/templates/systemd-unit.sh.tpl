systemctl {{ action }} -- {{ unit }}
