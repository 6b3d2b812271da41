// The Helm releases the Armada stand-in has installed, kept in memory and (with SITE_DATA_DIR) persisted after
// every change; and the fault settings that make an apply or a release's tests fail.
import type { ArmadaFaults, ArmadaRelease, ArmadaState } from '../../schemas/armada.ts'

export function createReleaseStore (options: {
  initial?: ArmadaState | undefined
  persist?: ((state: ArmadaState) => void) | undefined
} = {}) {
  const releases = new Map<string, ArmadaRelease>((options.initial?.releases ?? []).map((r) => [r.name, r]))

  function save (): void {
    options.persist?.({ version: 1, releases: [...releases.values()] })
  }

  return {
    list: (): ArmadaRelease[] => [...releases.values()].map((r) => structuredClone(r)),
    find: (name: string): ArmadaRelease | undefined => {
      const release = releases.get(name)
      return release === undefined ? undefined : structuredClone(release)
    },
    put (release: ArmadaRelease): void {
      releases.set(release.name, structuredClone(release))
      save()
    },
    remove (name: string): void {
      if (releases.delete(name)) save()
    },
    clear (): void {
      releases.clear()
      save()
    },
    /** Release names by namespace, as GET /releases answers them. */
    byNamespace (): Record<string, string[]> {
      const answer: Record<string, string[]> = {}
      for (const release of releases.values()) (answer[release.namespace] ??= []).push(release.name)
      return answer
    }
  }
}

export type ReleaseStore = ReturnType<typeof createReleaseStore>

/** A comma-separated fault setting (ARMADA_FAIL_APPLY, ARMADA_FAIL_TESTS): `1`, `true` or `*` mean every release. */
export function parseFaultList (value: string): string[] {
  const trimmed = value.trim()
  if (trimmed === '' || trimmed === '0' || trimmed.toLowerCase() === 'false') return []
  if (trimmed === '1' || trimmed.toLowerCase() === 'true') return ['*']
  return trimmed.split(',').map((name) => name.trim()).filter((name) => name !== '')
}

export function createArmadaFaults (initial: ArmadaFaults = { fail_apply: [], fail_tests: [] }) {
  let current: ArmadaFaults = structuredClone(initial)
  // a release is named by its Helm name (prefixed), the chart's `release` or the chart document's name
  const names = (list: string[], candidates: string[]): boolean => list.includes('*') || candidates.some((c) => list.includes(c))
  return {
    get: (): ArmadaFaults => structuredClone(current),
    set: (faults: ArmadaFaults): ArmadaFaults => {
      current = structuredClone(faults)
      return structuredClone(current)
    },
    applyFails: (...candidates: string[]): boolean => names(current.fail_apply, candidates),
    testFails: (...candidates: string[]): boolean => names(current.fail_tests, candidates)
  }
}

export type ArmadaFaultSettings = ReturnType<typeof createArmadaFaults>
