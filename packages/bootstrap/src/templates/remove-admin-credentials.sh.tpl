remove_admin_credentials () {
  rm -rf /etc/kubernetes/admin /usr/local/bin/kubectl
}
trap remove_admin_credentials EXIT

