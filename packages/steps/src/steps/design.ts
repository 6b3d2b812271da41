// The steps about the design: the peers' health, the revision's rendered documents, the deployment configuration,
// and the design's validation by Deckhand, Drydock, Promenade (the bootstrap service) and Armada.
import type { HttpClient } from '@slipway/common'
import type { DesignPeer } from '../clients/design.ts'
import { actionOf } from '../domain/conf.ts'
import { handedConfiguration } from '../domain/deployment-configuration.ts'
import { groupOrder } from '../domain/deployment-groups.ts'
import { wait } from '../domain/wait.ts'
import type { PeerName } from '../peers.ts'
import { StepFailure } from '../types.ts'
import { CONFIGURATION_TASK, readDeploymentConfiguration, type Step, type StepContext } from './context.ts'
import { namedStrategy } from './strategy.ts'

/** The components whose health upstream's preflight checks, in its order. */
const HEALTH_CHECKED: PeerName[] = ['armada', 'deckhand', 'drydock', 'promenade', 'shipyard']

/**
 * Tries of each health check, and the pause between them: a component restarting as the check runs (the
 * orchestrator itself, after a crash) is not taken for a dead one. Upstream checks once.
 */
export const HEALTH_TRIES = 3
export const HEALTH_PAUSE_MS = 2000

/** Where the preflight says Drydock failed its health check and the action may go on without it. */
export const PREFLIGHT_TASK = 'preflight.ucp_preflight_check'

async function validateWith (ctx: StepContext, name: string, peer: DesignPeer | null, timeoutS?: number): Promise<undefined> {
  if (peer === null) { await ctx.skipped(name.toLowerCase() as PeerName, `${name}'s validation of the design`); return undefined }
  const href = await ctx.designRef()
  ctx.io.log(`Asking ${name} to validate ${href}`)
  const result = await peer.validateDesign(href, ctx.ctx, timeoutS === undefined ? undefined : timeoutS * 1000)
  for (const m of result.messages) {
    ctx.io.log(`${name}: ${m.name === undefined ? '' : `${m.name}: `}${m.message}`, m.error ? 'error' : 'info')
  }
  if (!result.valid) {
    const errors = result.messages.filter((m) => m.error).length
    throw new StepFailure(`${name} found the site design invalid (${result.status}, ${errors} error(s))`)
  }
  ctx.io.log(`${name} validated the site design: ${result.status}`)
  return undefined
}

/**
 * The deployment strategy the configuration names, checked before Drydock is asked: its required fields, its labels,
 * its dependencies known and free of cycles. A broken strategy fails the validation, before any node is touched.
 */
async function checkStrategy (ctx: StepContext): Promise<void> {
  if (handedConfiguration(ctx.call.xcom[CONFIGURATION_TASK]) === undefined && await ctx.deckhand() === null) {
    await ctx.skipped('deckhand', 'checking the deployment strategy')
    return
  }
  const named = (await ctx.configuration())['physical_provisioner.deployment_strategy']
  if (named === null) return
  const order = groupOrder(await namedStrategy(ctx, named))
  ctx.io.log(`Deployment strategy ${named} is valid: groups ${order.join(', ')}`)
}

/** A component's health status, asked up to HEALTH_TRIES times; the last failure is thrown. */
async function healthOf (ctx: StepContext, peer: PeerName, http: HttpClient): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await http.expectOk('GET', '/health', { ctx: ctx.ctx, timeoutMs: 30_000 })).statusCode
    } catch (error) {
      if (attempt >= HEALTH_TRIES) throw error
      const reason = (error as { reason?: string, message?: string }).reason ?? (error as Error).message
      ctx.io.log(`${peer} did not pass health check ${attempt} of ${HEALTH_TRIES} (${reason}): asking again`, 'warning')
      await wait(HEALTH_PAUSE_MS, ctx.io.signal)
    }
  }
}

export const DESIGN_STEPS = {
  async preflight (ctx) {
    const continueOnFail = String(actionOf(ctx.call).parameters?.['continue-on-fail'] ?? 'false').toLowerCase() === 'true' &&
      ['deploy_site', 'update_site'].includes(ctx.call.dagId)
    let drydockDown = false
    for (const peer of HEALTH_CHECKED) {
      const http = await ctx.deps.peers.client(peer)
      if (http === null) { await ctx.skipped(peer, 'its health check'); continue }
      try {
        const status = await healthOf(ctx, peer, http)
        ctx.io.log(`${peer} is alive and healthy (${status})`)
      } catch (error) {
        const reason = (error as { reason?: string, message?: string }).reason ?? (error as Error).message
        if (peer === 'drydock' && continueOnFail) {
          ctx.io.log(`drydock did not pass its health check (${reason}): going on, as continue-on-fail is set`, 'warning')
          drydockDown = true
          continue
        }
        throw new StepFailure(`Health check failed for ${peer} on dag_id=${ctx.call.dagId}: ${reason}`)
      }
    }
    return { output: { drydock_continue_on_fail: drydockDown } }
  },

  async rendered_doc (ctx) {
    const deckhand = await ctx.deckhand()
    if (deckhand === null) { await ctx.skipped('deckhand', 'retrieving the rendered documents'); return undefined }
    const revision = ctx.revision()
    const documents = await deckhand.renderedDocuments(revision, ctx.ctx)
    const bySchema = new Map<string, number>()
    for (const d of documents) {
      const schema = String((d as { schema?: unknown } | null)?.schema ?? '?')
      bySchema.set(schema, (bySchema.get(schema) ?? 0) + 1)
    }
    ctx.io.log(`Revision ${revision} renders ${documents.length} document(s): ${[...bySchema].map(([s, n]) => `${s} ${n}`).join(', ')}`)
    return undefined
  },

  async deployment_configuration (ctx) {
    const deckhand = await ctx.deckhand()
    if (deckhand === null) {
      throw new StepFailure(`Cannot read the deployment configuration: no deckhand, ${await ctx.deps.peers.describe('deckhand')}`)
    }
    const revision = ctx.revision()
    ctx.io.log(`Reading the deployment configuration of revision ${revision}`)
    const configuration = await readDeploymentConfiguration(deckhand, revision, ctx.ctx, (line) => ctx.io.log(line))
    return { output: configuration }
  },

  async deckhand_validate (ctx) {
    const deckhand = await ctx.deckhand()
    if (deckhand === null) { await ctx.skipped('deckhand', 'the validations of the revision'); return undefined }
    const revision = ctx.revision()
    const results = await deckhand.validations(revision, ctx.ctx)
    const failed = results.filter((r) => r.status.toLowerCase() === 'failure')
    for (const r of results) ctx.io.log(`Deckhand validation ${r.name}: ${r.status}`, failed.includes(r) ? 'error' : 'info')
    if (failed.length > 0) {
      for (const d of await deckhand.validationDetail(revision, ctx.ctx)) {
        for (const e of d.errors) ctx.io.log(`${d.name}: ${e}`, 'error')
      }
      throw new StepFailure(`Site design validation failed in Deckhand for revision ${revision}: ${failed.map((r) => r.name).join(', ')}`)
    }
    ctx.io.log(`Revision ${revision}: ${results.length} Deckhand validation(s), none failed`)
    return undefined
  },

  async drydock_validate (ctx) {
    await checkStrategy(ctx)
    return await validateWith(ctx, 'Drydock', await ctx.drydock())
  },
  async promenade_validate (ctx) { return await validateWith(ctx, 'Promenade', await ctx.promenade()) },
  async armada_validate (ctx) {
    const timeout = (await ctx.configuration())['armada.validate_design_timeout']
    return await validateWith(ctx, 'Armada', await ctx.armada(), timeout)
  }
} satisfies Record<string, Step>
