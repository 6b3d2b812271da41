// What a node-level subtask does to its node: the MAAS states it moves the machine through, one phase at a time,
// and, for relabel_nodes, the labels it sends the bootstrap service (as Drydock's Kubernetes driver does).
import type { CallContext } from '@slipway/common'
import type { NodeAction } from '../../schemas/drydock.ts'
import type { SiteNode } from '../../schemas/nodes.ts'

export type Phase = readonly [status: string, power: string]

/** The bootstrap service (Promenade) as relabel_nodes uses it. */
export interface LabelSink {
  putNodeLabels: (node: string, labels: Record<string, string>, ctx: CallContext) => Promise<void>
}

/**
 * The states `action` moves `node` through, in order; empty when there is nothing to do (a deployed node is not
 * prepared or deployed again, a released one not destroyed again), which is a success.
 */
export function phasesFor (action: NodeAction, node: SiteNode): Phase[] {
  const deployed = node.status_name === 'Deployed'
  switch (action) {
    case 'prepare_nodes':
      return deployed || node.status_name === 'Allocated' ? [] : [['Allocated', 'off']]
    case 'deploy_nodes':
      if (deployed && node.power_state === 'on') return []
      return [...node.status_name === 'Allocated' ? [] : [['Allocated', 'off'] as const], ['Deploying', 'on'], ['Deployed', 'on']]
    case 'destroy_nodes':
      return node.status_name === 'Ready' && node.power_state === 'off' ? [] : [['Releasing', node.power_state], ['Ready', 'off']]
    case 'verify_nodes':
    case 'relabel_nodes':
      return []
  }
}

/** Where a failing node's subtask leaves it: a failed deployment stops the machine; other actions leave it be. */
export function failedPhase (action: NodeAction): Phase | undefined {
  return action === 'deploy_nodes' ? ['Failed deployment', 'off'] : undefined
}

/** What the subtask says when done. */
export function doneMessage (action: NodeAction, node: string, moved: boolean, final: SiteNode): string {
  if (action === 'verify_nodes') return `Node ${node} answers: ${final.status_name}, power ${final.power_state}`
  if (!moved) return `Node ${node} already ${final.status_name}, power ${final.power_state}: nothing to do`
  return `Node ${node} now ${final.status_name}, power ${final.power_state}`
}
