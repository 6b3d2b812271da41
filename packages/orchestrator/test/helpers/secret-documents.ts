// Documents of the tests of secrets in collections: a host, a secret that takes the host by substitution, and a
// secret that takes nothing from others.
export const HOSTS = `---
schema: example/Host/v1
metadata:
  schema: metadata/Document/v1
  name: db-host
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: cleartext
data: {ip: 10.0.0.5}
`

/** A secret whose data takes the database host by substitution. */
export const creds = (password: string, source = 'db-host'): string => `---
schema: deckhand/Passphrase/v1
metadata:
  schema: metadata/Document/v1
  name: db-url
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: encrypted
  substitutions:
    - src: {schema: example/Host/v1, name: ${source}, path: .ip}
      dest: {path: ., pattern: HOST}
data: postgres://app:${password}@HOST/db
`

/** A secret that takes nothing from others. */
export const PLAIN_SECRET = `---
schema: deckhand/Passphrase/v1
metadata:
  schema: metadata/Document/v1
  name: api-key
  layeringDefinition: {abstract: false, layer: site}
  storagePolicy: encrypted
data: key-hunter2
`
