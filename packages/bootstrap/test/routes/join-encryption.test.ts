// Encrypted join scripts (as Promenade encrypts them): with EncryptionPolicy scripts.join {gpg: {}} the payload is
// gpg-encrypted with the configured passphrase and the script decrypts it with the node's PROMENADE_ENCRYPTION_KEY;
// without a passphrase or gpg, 500 EncryptionException, and no key is ever made up.
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AUTH } from '@slipway/common/testing'
import { createGpgEncryptor, gpgAvailable, type PayloadEncryptor } from '../../src/clients/gpg.ts'
import { buildTestApp, clusterNodes, exampleDesign, joinUrl, startDesignServer, startKube } from '../helpers/servers.ts'
import { bashSyntax, HAS_SHELLCHECK, payloadArchive, shellcheck, tempDir } from '../helpers/script.ts'

const HAS_GPG = gpgAvailable('gpg')
if (!HAS_GPG) console.warn('bootstrap tests: gpg is not installed; the encrypted join-script tests are reported as skipped')

const PASSPHRASE = 'correct horse battery staple'
const policy = (method: string) => `---
schema: promenade/EncryptionPolicy/v1
metadata:
  schema: metadata/Document/v1
  name: encryption-policy
  layeringDefinition:
    abstract: false
    layer: site
  storagePolicy: cleartext
data:
  scripts:
    join: ${method}
`

async function joinScript (
  design: string,
  encryptPayload: PayloadEncryptor | null | undefined = createGpgEncryptor({ passphrase: PASSPHRASE })
) {
  const store = await startDesignServer(design)
  const kube = await startKube(clusterNodes())
  const app = await buildTestApp({ kubeUrl: kube.url, encryptPayload: encryptPayload ?? undefined, designHosts: [store.url] })
  return await app.inject({
    url: joinUrl([['design_ref', `${store.url}/site.yaml`], ['hostname', 'n1'], ['ip', '192.168.77.11'], ['labels.dynamic', 'node-role.kubernetes.io/worker=']]),
    headers: AUTH
  })
}

describe('GET /join-scripts with an EncryptionPolicy', () => {
  it.skipIf(!HAS_GPG)('encrypts the payload with gpg; the script decrypts it with PROMENADE_ENCRYPTION_KEY', async () => {
    const res = await joinScript(exampleDesign() + policy('{gpg: {}}'))
    expect(res.statusCode, res.body).toBe(200)
    const script = res.body
    expect(script).toContain('DECRYPTION_KEY="${PROMENADE_ENCRYPTION_KEY:?')
    expect(script).toContain('| base64 -d | /usr/bin/gpg --decrypt --batch --quiet --pinentry-mode loopback --passphrase "$DECRYPTION_KEY" | tar -zxv -C /')
    expect(script).not.toContain(PASSPHRASE)
    expect(bashSyntax(script)).toBe(0)
    if (HAS_SHELLCHECK) expect(shellcheck(script).output).toBe('')
    // the archive is gpg data: unreadable as gzip, and the passphrase opens it into the node's files
    const encrypted = payloadArchive(script)
    expect(encrypted.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(false)
    const dir = tempDir()
    writeFileSync(join(dir, 'payload.gpg'), encrypted)
    writeFileSync(join(dir, 'passphrase'), PASSPHRASE)
    const decrypted = spawnSync('gpg', ['--batch', '--quiet', '--pinentry-mode', 'loopback', '--passphrase-file', join(dir, 'passphrase'), '--decrypt', join(dir, 'payload.gpg')], { env: { ...process.env, GNUPGHOME: dir } })
    expect(decrypted.status, String(decrypted.stderr)).toBe(0)
    writeFileSync(join(dir, 'payload.tgz'), decrypted.stdout)
    expect(execFileSync('tar', ['-tzf', join(dir, 'payload.tgz')], { encoding: 'utf8' })).toMatch(/^etc\/hosts$/m)
    // a wrong passphrase does not open it
    writeFileSync(join(dir, 'passphrase'), 'wrong')
    expect(spawnSync('gpg', ['--batch', '--quiet', '--pinentry-mode', 'loopback', '--passphrase-file', join(dir, 'passphrase'), '--decrypt', join(dir, 'payload.gpg')], { env: { ...process.env, GNUPGHOME: dir } }).status).not.toBe(0)
  })

  it('answers 500 EncryptionException when no passphrase is configured, and never makes one up', async () => {
    expect(createGpgEncryptor({ passphrase: '' })).toBeUndefined()
    const res = await joinScript(exampleDesign() + policy('{gpg: {}}'), null)
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({ message: 'Payload encryption error', details: { errorType: 'EncryptionException' } })
    expect(res.json().reason).toContain('no passphrase is configured or gpg is not installed')
  })

  it('answers 500 EncryptionException for a method other than gpg, and a plain script without the policy', async () => {
    const other = await joinScript(exampleDesign() + policy('{openssl: {}}'))
    expect(other.statusCode).toBe(500)
    expect(other.json()).toMatchObject({ details: { errorType: 'EncryptionException' } })
    const plain = await joinScript(exampleDesign())
    expect(plain.statusCode).toBe(200)
    expect(plain.body).toContain('| base64 -d | cat | tar -zxv -C /')
  })
})
