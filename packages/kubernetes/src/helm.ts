// The `helm` command line for the chart's tests: built by bin/build-helm.sh (helm.sh/helm/v4 at the version
// helm/go.mod pins) and run with a home of its own (cache, configuration, data in a temporary folder: the user's
// helm settings and repositories are neither read nor written), against the kubeconfig it is given.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runScript } from '@slipway/common/script'
import { PACKAGE_ROOT } from './kubernetes.ts'

/** This machine cannot build helm (no Go, no module proxy): the reason, for a visible skip. */
export class HelmUnavailableError extends Error { override name = 'HelmUnavailableError' }

/** Runs bin/build-helm.sh (seconds when already built) and answers the path of the helm binary. */
export async function buildHelm (output: (line: string) => void = () => {}): Promise<string> {
  const { answer } = await runScript(join(PACKAGE_ROOT, 'bin', 'build-helm.sh'), [], {
    name: 'helm build',
    output,
    unavailable: (reason) => new HelmUnavailableError(reason ?? 'helm build: skipped')
  })
  return join(answer, 'helm')
}

export interface HelmRun {
  /** The exit code: 0 for success. */
  code: number
  stdout: string
  stderr: string
}

export interface Helm {
  /** helm with these arguments; never rejects on a non-zero exit (the test reads the code and the message). */
  run: (args: string[], options?: { kubeconfig?: string }) => Promise<HelmRun>
  close: () => void
}

/** A helm of its own home; `close` removes that home. */
export function createHelm (binary: string): Helm {
  const home = mkdtempSync(join(tmpdir(), 'slipway-helm-'))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data')
  }
  return {
    async run (args, options = {}) {
      const kube = options.kubeconfig === undefined ? {} : { KUBECONFIG: options.kubeconfig }
      return await new Promise((resolve, reject) => {
        execFile(binary, args, { env: { ...env, ...kube }, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
          const code = error === null ? 0 : (error as { code?: unknown }).code
          if (typeof code !== 'number') { reject(error ?? new Error(`helm ${args[0] ?? ''} did not run`)); return }
          resolve({ code, stdout, stderr })
        })
      })
    },
    close () { rmSync(home, { recursive: true, force: true }) }
  }
}
