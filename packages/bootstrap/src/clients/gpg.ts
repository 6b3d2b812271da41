// Symmetric gpg encryption of join-script payloads (as Promenade's EncryptionPolicy asks): the machine's gpg with the
// configured passphrase, in a throw-away GNUPGHOME so that no keyring of the service's user is read or written. gpg
// runs as a child process the event loop does not wait on: it compresses and encrypts payloads of tens of megabytes.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, type Readable } from 'node:stream'

/**
 * Encrypts a payload as it is read: the stream it gives carries gpg's output and fails when gpg fails or the payload
 * does (never ending as if it were whole); destroying it stops gpg.
 */
export type PayloadEncryptor = (payload: Readable) => Readable

/** Largest encrypted payload read from gpg. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024

/**
 * gpg with `args` in the folder `home`, `input` piped to its standard input, its standard output as a stream (gpg
 * reads and writes as it goes: backpressure on either side holds it). `home` is removed when gpg has ended.
 */
function gpgStream (gpgPath: string, args: string[], input: Readable, home: string): Readable {
  const out = new PassThrough()
  const child = spawn(gpgPath, args, { env: { ...process.env, GNUPGHOME: home }, stdio: ['pipe', 'pipe', 'pipe'] })
  const err: Buffer[] = []
  let size = 0
  let failure: Error | undefined
  const fail = (error: Error): void => {
    failure ??= error
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  child.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > MAX_OUTPUT_BYTES) fail(new Error(`gpg wrote more than ${MAX_OUTPUT_BYTES} bytes`))
  })
  child.stdout.pipe(out, { end: false })
  child.stderr.on('data', (chunk: Buffer) => { if (err.length < 16) err.push(chunk) })
  // gpg may exit before reading all of its input: its exit status tells, not the broken pipe
  child.stdin.on('error', () => {})
  input.on('error', (error) => { fail(error) })
  input.pipe(child.stdin)
  child.on('error', (error) => { fail(error) })
  child.on('close', (code) => {
    rmSync(home, { recursive: true, force: true })
    if (failure === undefined && code !== 0) {
      failure = new Error(`gpg could not encrypt the payload: ${Buffer.concat(err).toString().trim().slice(0, 300)}`)
    }
    if (failure === undefined) out.end()
    else out.destroy(failure)
  })
  // the reader went away (or the stream failed): gpg and the payload stop
  out.on('close', () => {
    if (!out.writableFinished) fail(new Error('the reader went away'))
    input.destroy()
  })
  return out
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
  return (payload) => {
    const home = mkdtempSync(join(tmpdir(), 'bootstrap-gpg-'))
    // the passphrase goes through a file only this user can read, never through the command line
    const passphraseFile = join(home, 'passphrase')
    writeFileSync(passphraseFile, options.passphrase, { mode: 0o600 })
    const args = ['--batch', '--yes', '--quiet', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase-file', passphraseFile,
      '--symmetric', '--cipher-algo', 'AES256', '--output', '-']
    return gpgStream(gpgPath, args, payload, home)
  }
}
