// Values a join script takes from the design, checked before any text is produced: each one either written into a
// configuration file (one word, one line) or passed to a command on the node. A value passed to a command must not be
// read as one of its options: a package or unit name, an image or a name to resolve that starts with '-' would be
// (`apt-get install -oDPkg::Pre-Invoke::=…` runs a command as root), so each is held to the syntax of what it names.
import { DesignError, dataAt, requireDataAt, type DesignDocument } from './documents.ts'

export function record (value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {}
}

export function isObject (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

// a value written into a config line (resolv.conf, chrony.conf, /etc/hosts, haproxy.cfg, apt sources):
// one word, so that no newline, quote or blank can start another directive
const WORD = /^[^\s"'\\`$;]+$/
const LINE = /^[^\n\r\0"\\]*$/
export const DNS_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/

export function where (doc: DesignDocument, path: string): string {
  return `Document ${doc.schema} ${doc.metadata.name}: data.${path}`
}

/** A single word (an address, a host name, a port) from the design, or a DesignError naming its place. */
export function word (doc: DesignDocument, path: string, value: unknown): string {
  if ((typeof value !== 'string' && typeof value !== 'number') || !WORD.test(String(value))) {
    throw new DesignError(`${where(doc, path)} must be a single word without blanks, quotes or control characters`)
  }
  return String(value)
}

export function words (doc: DesignDocument, path: string): string[] {
  const value = dataAt(doc, path)
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new DesignError(`${where(doc, path)} must be a list`)
  return value.map((item, i) => word(doc, `${path}[${i}]`, item))
}

/** A list of strings that are written as whole lines (apt repositories, kubelet arguments). */
export function lines (doc: DesignDocument, path: string): string[] {
  const value = dataAt(doc, path)
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new DesignError(`${where(doc, path)} must be a list`)
  return value.map((item, i) => {
    if (typeof item !== 'string' || !LINE.test(item)) {
      throw new DesignError(`${where(doc, `${path}[${i}]`)} must be a string on one line, without quotes or backslashes`)
    }
    return item
  })
}

export function port (doc: DesignDocument, path: string): number {
  const value = requireDataAt(doc, path)
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new DesignError(`${where(doc, path)} must be a port number (1-65535)`)
  }
  return value
}

// Debian's package name (lowercase letters, digits, '+', '-', '.'; two or more; a letter or digit first), optionally
// an architecture, then a version (a digit first, as Debian versions and epochs begin) or a release to take it from
const DEBIAN_PACKAGE = /^[a-z0-9][a-z0-9+.-]+(?::[a-z0-9][a-z0-9-]*)?(?:=[0-9][A-Za-z0-9.+~:-]*|\/[A-Za-z0-9][A-Za-z0-9.+~-]*)?$/

/** A package apt-get installs: `name[:arch][=version|/release]`, or a DesignError naming its place. */
export function debianPackage (doc: DesignDocument, path: string, value: unknown): string {
  if (typeof value !== 'string' || !DEBIAN_PACKAGE.test(value)) {
    throw new DesignError(`${where(doc, path)} must be a Debian package name (lowercase letters, digits, '+', '-' and '.', a letter or digit first), optionally with :architecture and =version or /release`)
  }
  return value
}

// systemd's unit name characters; the name may not start with '-', and is at most 255 characters
const SYSTEMD_UNIT = /^[A-Za-z0-9:_.\\@][A-Za-z0-9:_.\\@-]{0,254}$/

/** The name of the `index`th unit of HostSystem `systemd_units`, or a DesignError naming its place (not the name). */
export function systemdUnit (doc: DesignDocument, index: number, value: string): string {
  if (!SYSTEMD_UNIT.test(value)) {
    throw new DesignError(`${where(doc, 'systemd_units')}: key ${index + 1} must be a systemd unit name (letters, digits and ':_.@\\-', not starting with '-')`)
  }
  return value
}

/** A container image reference: one word, a letter or digit first, so that `docker run` cannot read it as an option. */
export function imageRef (doc: DesignDocument, path: string, value: unknown): string {
  const image = word(doc, path, value)
  if (!/^[A-Za-z0-9]/.test(image)) throw new DesignError(`${where(doc, path)} must be an image reference, starting with a letter or digit`)
  return image
}

/** Names the node resolves with dig: DNS names, so that none is read as one of dig's `-` or `+` options. */
export function dnsNames (doc: DesignDocument, path: string): string[] {
  return words(doc, path).map((name, i) => {
    if (!DNS_NAME.test(name)) throw new DesignError(`${where(doc, `${path}[${i}]`)} must be a DNS name`)
    return name
  })
}
