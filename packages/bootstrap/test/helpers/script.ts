// Reading generated join scripts in tests: the payload archive unpacked into a temp folder, bash -n and shellcheck.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

export const HAS_SHELLCHECK = spawnSync('shellcheck', ['--version']).status === 0

/** A temp folder removed when the test finishes. */
export function tempDir (): string {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-test-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The base64 payload of a script, as the bytes of its tar.gz. */
export function payloadArchive (script: string): Buffer {
  const line = script.split('\n').find((l) => l.startsWith("echo '") && l.includes('| base64 -d |') && l.includes('tar -zxv'))
  const base64 = /^echo '([A-Za-z0-9+/=]+)'/.exec(line ?? '')?.[1]
  if (base64 === undefined) throw new Error('no payload line in the script')
  return Buffer.from(base64, 'base64')
}

/** Extracts the script's payload into a temp folder and returns a reader of its files. */
export function payloadOf (script: string): (path: string) => string {
  const dir = tempDir()
  writeFileSync(join(dir, 'payload.tgz'), payloadArchive(script))
  execFileSync('tar', ['-xzf', join(dir, 'payload.tgz'), '-C', dir])
  return (path) => readFileSync(join(dir, path), 'utf8')
}

/** Exit status of `bash -n` on the script (0: syntax is fine). */
export function bashSyntax (script: string): number | null {
  return spawnSync('bash', ['-n'], { input: script }).status
}

/** shellcheck's findings at warning level and above. */
export function shellcheck (script: string): { status: number | null, output: string } {
  const result = spawnSync('shellcheck', ['-s', 'bash', '-S', 'warning', '-'], { input: script, encoding: 'utf8' })
  return { status: result.status, output: result.stdout }
}
