// Dotted IPv4 addresses, as the join-scripts query takes them and as a join IP must be: each octet 0–255, without
// leading zeros. Imports nothing: the query's schema, the domain and the Kubernetes client all use it.

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])'

/** A dotted IPv4 address, each octet 0–255 without leading zeros. */
export const IPV4_PATTERN = `^${OCTET}(\\.${OCTET}){3}$`

const IPV4 = new RegExp(IPV4_PATTERN)

/** Whether `value` is a dotted IPv4 address. */
export const isIpv4 = (value: string): boolean => IPV4.test(value)
