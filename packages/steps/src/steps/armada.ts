// The steps that drive Armada: apply the site's manifest by its design reference (what it installed, upgraded and
// changed in the log; whether Shipyard's own release was upgraded handed on for the upgrade branch), list the
// releases, and run every release's tests. decide_airflow_upgrade follows from what the apply handed on.
import { actionOf } from '../domain/conf.ts'
import { StepFailure } from '../types.ts'
import type { Step } from './context.ts'

/** The task id of the apply, whose output decide_airflow_upgrade reads. */
export const APPLY_TASK = 'armada_build.armada_post_apply'

/** Shipyard's release names vary by site (ucp-shipyard, …): an upgraded release whose name says shipyard counts. */
const isShipyard = (release: string): boolean => release.includes('shipyard')

export const ARMADA_STEPS = {
  async armada_apply (ctx) {
    const armada = await ctx.armada()
    if (armada === null) { await ctx.skipped('armada', 'the apply'); return { output: { upgrade_airflow_worker: false } } }
    const c = await ctx.configuration()
    const manifest = c['armada.manifest']
    const timeout = c['armada.post_apply_timeout']
    const designRef = await ctx.designRef()
    ctx.io.log(`Armada apply of manifest ${manifest} from ${designRef} (timeout ${timeout} s)`)
    const message = await armada.apply(designRef, manifest, timeout, ctx.ctx)
    for (const kind of ['install', 'upgrade', 'purge', 'protected'] as const) {
      ctx.io.log(`Armada ${kind}: ${message[kind].length === 0 ? 'none' : message[kind].join(', ')}`)
    }
    for (const d of message.diff) ctx.io.log(`Armada diff: ${typeof d === 'string' ? d : JSON.stringify(d)}`)
    const upgradeAirflowWorker = message.upgrade.some(isShipyard)
    ctx.io.log(upgradeAirflowWorker
      ? 'Shipyard\'s release was upgraded: the Airflow workers are to be upgraded'
      : 'Shipyard\'s release was not upgraded')
    return { output: { upgrade_airflow_worker: upgradeAirflowWorker, message } }
  },

  async armada_releases (ctx) {
    const armada = await ctx.armada()
    if (armada === null) { await ctx.skipped('armada', 'listing the releases'); return undefined }
    const releases = await armada.releases(ctx.ctx, (await ctx.configuration())['armada.get_releases_timeout'] * 1000)
    const count = Object.values(releases).reduce((n, list) => n + list.length, 0)
    if (count === 0) ctx.io.log('Armada has no release installed', 'warning')
    for (const [namespace, list] of Object.entries(releases)) ctx.io.log(`Releases in ${namespace}: ${list.join(', ')}`)
    return { output: releases }
  },

  async armada_test (ctx) {
    const armada = await ctx.armada()
    if (armada === null) { await ctx.skipped('armada', 'the release tests'); return undefined }
    const c = await ctx.configuration()
    const named = actionOf(ctx.call).parameters?.release
    const releases = typeof named === 'string' && named !== ''
      ? [named]
      : Object.values(await armada.releases(ctx.ctx, c['armada.get_releases_timeout'] * 1000)).flat()
    if (releases.length === 0) { ctx.io.log('Armada has no release to test', 'warning'); return undefined }
    const failed: string[] = []
    for (const release of releases) {
      const result = await armada.testRelease(release, c['armada.post_apply_timeout'], ctx.ctx)
      ctx.io.log(`Tests of ${release}: ${result.message}`, result.passed ? 'info' : 'error')
      if (!result.passed) failed.push(release)
    }
    if (failed.length > 0) throw new StepFailure(`Release tests failed: ${failed.join(', ')}`)
    ctx.io.log(`Tests of ${releases.length} release(s) passed`)
    return undefined
  },

  async decide_upgrade (ctx) {
    const applied = ctx.call.xcom[APPLY_TASK] as { upgrade_airflow_worker?: unknown } | undefined
    const follow = applied?.upgrade_airflow_worker === true ? 'upgrade_airflow' : 'skip_upgrade_airflow'
    ctx.io.log(applied === undefined ? `The apply handed nothing on: following ${follow}` : `Following branch ${follow}`)
    return { follow: [follow] }
  }
} satisfies Record<string, Step>
