// Prometheus metrics of a service: one registry per service instance (never prom-client's global one, so that two
// services in one process, as in tests, keep their own), with what every Slipway service measures — requests by route
// and status, outbound calls by component, lock waits — and room for a service's own gauges.
import { createRequire } from 'node:module'
import type { Registry } from 'prom-client'

// loaded by the first createMetrics, not by importing this package: a service without metrics (the stand-ins, a
// service started with METRICS_ENABLED=false) never loads prom-client and what its default metrics bring
const load = createRequire(import.meta.url)

/** Latency buckets in seconds: from a cached read (1 ms) to a slow downstream (30 s). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export interface Metrics {
  registry: Registry
  /** One answered request: its route pattern (never the raw URL, whose ids would make a series each). */
  request: (method: string, route: string, status: number, seconds: number) => void
  /** One outbound call: `outcome` is the status class (`2xx` … `5xx`) or the failure (`timeout`, `unreachable`). */
  outbound: (component: string, method: string, outcome: string, seconds: number) => void
  /** One wait for a lock: `acquired` or `refused`. */
  lockWait: (lockType: string, outcome: 'acquired' | 'refused', seconds: number) => void
  /** A gauge read at each scrape. */
  gauge: (name: string, help: string, read: () => number | undefined) => void
  /** A counter the service increments. */
  counter: (name: string, help: string) => { inc: (by?: number) => void }
}

export function createMetrics (service: string): Metrics {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = load('prom-client') as typeof import('prom-client')
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  collectDefaultMetrics({ register: registry })
  const requests = new Histogram({
    name: 'slipway_http_request_duration_seconds',
    help: 'Requests answered, by method, route pattern and status, with their latency',
    labelNames: ['method', 'route', 'status'],
    buckets: BUCKETS,
    registers: [registry]
  })
  const outbound = new Histogram({
    name: 'slipway_outbound_request_duration_seconds',
    help: 'Calls to other components, by component, method and outcome (status class or failure), with their latency',
    labelNames: ['component', 'method', 'outcome'],
    buckets: BUCKETS,
    registers: [registry]
  })
  const outboundErrors = new Counter({
    name: 'slipway_outbound_errors_total',
    help: 'Calls to other components that failed: timeouts, unreachable components and 5xx answers',
    labelNames: ['component'],
    registers: [registry]
  })
  const locks = new Histogram({
    name: 'slipway_lock_wait_seconds',
    help: 'Time spent taking a database lock, by lock type and outcome',
    labelNames: ['lock_type', 'outcome'],
    buckets: BUCKETS,
    registers: [registry]
  })
  return {
    registry,
    request: (method, route, status, seconds) => { requests.observe({ method, route, status: String(status) }, seconds) },
    outbound: (component, method, outcome, seconds) => {
      outbound.observe({ component, method, outcome }, seconds)
      if (outcome === 'timeout' || outcome === 'unreachable' || outcome === '5xx') outboundErrors.inc({ component })
    },
    lockWait: (lockType, outcome, seconds) => { locks.observe({ lock_type: lockType, outcome }, seconds) },
    gauge: (name, help, read) => {
      // eslint-disable-next-line no-new -- a gauge registers itself and is read through the registry
      new Gauge({ name, help, registers: [registry], collect () { const value = read(); if (value !== undefined) this.set(value) } })
    },
    counter: (name, help) => {
      const counter = new Counter({ name, help, registers: [registry] })
      return { inc: (by = 1) => { counter.inc(by) } }
    }
  }
}
