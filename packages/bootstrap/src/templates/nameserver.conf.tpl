nameserver {{ address }}
