// The bootstrap service (Promenade API) as Drydock's relabel_nodes calls it: a node's labels set; every call forwards
// the task's context marker and end user.
import { createHttpClient, staticServiceToken } from '@slipway/common'
import type { Dispatcher } from 'undici'
import type { LabelSink } from '../domain/drydock/node-work.ts'

export function createBootstrapClient (options: {
  baseUrl: string
  timeoutMs: number
  serviceToken?: string | undefined
  dispatcher?: Dispatcher | undefined
}): LabelSink {
  const http = createHttpClient({
    component: 'bootstrap',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    dispatcher: options.dispatcher,
    serviceAuth: staticServiceToken(options.serviceToken)
  })
  return {
    async putNodeLabels (node, labels, ctx) {
      await http.expectOk('PUT', `/node-labels/${encodeURIComponent(node)}`, { ctx, json: labels })
    }
  }
}
