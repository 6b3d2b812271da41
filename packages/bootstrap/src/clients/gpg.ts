// Symmetric gpg encryption of join-script payloads (as Promenade's EncryptionPolicy asks): the machine's gpg with the
// configured passphrase, in a throw-away GNUPGHOME so that no keyring of the service's user is read or written. gpg
// runs as a child process the event loop does not wait on: it compresses and encrypts payloads of tens of megabytes.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Encrypts a payload; rejects when gpg fails. */
export type PayloadEncryptor = (payload: Buffer) => Promise<Buffer>

/** Largest encrypted payload read back from gpg. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024

/** Runs gpg with `args`, `input` on its standard input; its standard output, or an error with the start of its errors. */
async function runGpg (gpgPath: string, args: string[], input: Buffer, env: NodeJS.ProcessEnv): Promise<Buffer> {
  return await new Promise((resolve, reject) => {
    const child = spawn(gpgPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_OUTPUT_BYTES) { child.kill('SIGKILL'); return }
      out.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => { err.push(chunk) })
    // gpg may exit before reading all of its input: its exit status tells, not the broken pipe
    child.stdin.on('error', () => {})
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0 && size <= MAX_OUTPUT_BYTES) resolve(Buffer.concat(out))
      else reject(new Error(`gpg could not encrypt the payload: ${Buffer.concat(err).toString().trim().slice(0, 300)}`))
    })
    child.stdin.end(input)
  })
}

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
  return async (payload) => {
    const home = await mkdtemp(join(tmpdir(), 'bootstrap-gpg-'))
    try {
      // the passphrase goes through a file only this user can read, never through the command line
      const passphraseFile = join(home, 'passphrase')
      await writeFile(passphraseFile, options.passphrase, { mode: 0o600 })
      const args = ['--batch', '--yes', '--quiet', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase-file', passphraseFile,
        '--symmetric', '--cipher-algo', 'AES256', '--output', '-']
      return await runGpg(gpgPath, args, payload, { ...process.env, GNUPGHOME: home })
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  }
}
