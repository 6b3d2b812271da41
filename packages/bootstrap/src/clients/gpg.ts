// Symmetric gpg encryption of join-script payloads (spec/bootstrap.md §6.10): the machine's gpg with the configured
// passphrase, in a throw-away GNUPGHOME so that no keyring of the service's user is read or written.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Encrypts a payload; throws when gpg fails. */
export type PayloadEncryptor = (payload: Buffer) => Buffer

/** Whether `gpgPath` runs. */
export function gpgAvailable (gpgPath: string): boolean {
  return spawnSync(gpgPath, ['--version'], { stdio: 'ignore' }).status === 0
}

/**
 * An encryptor with `passphrase`, or undefined when there is no passphrase or no gpg — then a design that asks for
 * encryption is answered 500 EncryptionException, and no key is ever made up.
 */
export function createGpgEncryptor (options: { passphrase: string, gpgPath?: string }): PayloadEncryptor | undefined {
  const gpgPath = options.gpgPath ?? 'gpg'
  if (options.passphrase === '' || !gpgAvailable(gpgPath)) return undefined
  return (payload) => {
    const home = mkdtempSync(join(tmpdir(), 'bootstrap-gpg-'))
    try {
      // the passphrase goes through a file only this user can read, never through the command line
      const passphraseFile = join(home, 'passphrase')
      writeFileSync(passphraseFile, options.passphrase, { mode: 0o600 })
      const result = spawnSync(gpgPath, ['--batch', '--yes', '--quiet', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase-file', passphraseFile,
        '--symmetric', '--cipher-algo', 'AES256', '--output', '-'], { input: payload, env: { ...process.env, GNUPGHOME: home }, maxBuffer: 256 * 1024 * 1024 })
      if (result.status !== 0) throw new Error(`gpg could not encrypt the payload: ${String(result.stderr).trim().slice(0, 300)}`)
      return result.stdout
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  }
}
