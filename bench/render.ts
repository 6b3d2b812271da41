// Rendering benchmark for stub-store (issue #3): a deterministic synthetic site of 3 layers with
// substitutions and a few secrets, PUT through the HTTP API, then GET rendered-documents timed cold
// (first render of a fresh revision, nothing cached) and warm (same revision again, render cache hit).
// Run: node bench/render.ts [sizes...]   (default 2000 20000)
import { request } from 'undici'
import { emitYamlStream, loadConfig, startStore } from '@slipway/stub-store'

const SECRETS = 5
const SITE_PER_GROUP = 8

interface Site { yaml: string, total: number, returned: number }

/** N documents: LayeringPolicy, secrets, host sources, and groups of 1 global (abstract) + 1 region + 8 site. */
export function syntheticSite (n: number): Site {
  const docs: unknown[] = []
  const meta = (name: string, layer: string, extra: Record<string, unknown> = {}) => ({
    schema: 'metadata/Document/v1', name, storagePolicy: 'cleartext', layeringDefinition: { layer }, ...extra
  })
  docs.push({
    schema: 'deckhand/LayeringPolicy/v1',
    metadata: { schema: 'metadata/Control/v1', name: 'layering-policy' },
    data: { layerOrder: ['global', 'region', 'site'] }
  })
  for (let s = 0; s < SECRETS; s++) {
    docs.push({
      schema: 'deckhand/Passphrase/v1',
      metadata: { ...meta(`secret-${s}`, 'site'), storagePolicy: 'encrypted' },
      data: `passphrase-${s}-${'x'.repeat(24)}`
    })
  }
  let abstract = 0
  for (let g = 0; docs.length < n; g++) {
    const group = `g${g}`
    docs.push({
      schema: 'bench/Hosts/v1',
      metadata: meta(`hosts-${g}`, 'global'),
      data: { ip: `10.${g % 250}.${(g * 7) % 250}.1`, domain: `group${g}.example`, ports: [22, 443] }
    })
    docs.push({
      schema: 'bench/Server/v1',
      metadata: meta(`server-${g}-global`, 'global', { labels: { group }, layeringDefinition: { layer: 'global', abstract: true } }),
      data: {
        image: 'registry.example/server:1.0',
        replicas: 3,
        limits: { cpu: '2', memory: '4Gi' },
        features: { tls: true, metrics: true },
        env: [{ name: 'MODE', value: 'prod' }]
      }
    })
    abstract++
    docs.push({
      schema: 'bench/Server/v1',
      metadata: meta(`server-${g}-region`, 'region', {
        labels: { group, tier: 'region' },
        layeringDefinition: { layer: 'region', parentSelector: { group }, actions: [{ method: 'merge', path: '.' }] }
      }),
      data: { region: `region-${g % 4}`, limits: { memory: '8Gi' } }
    })
    for (let i = 0; i < SITE_PER_GROUP && docs.length < n; i++) {
      const substitutions: unknown[] = [
        { src: { schema: 'bench/Hosts/v1', name: `hosts-${g}`, path: '.ip' }, dest: { path: '.network.address' } },
        { src: { schema: 'bench/Hosts/v1', name: `hosts-${g}`, path: '.domain' }, dest: { path: '.url', pattern: 'DOMAIN' } }
      ]
      if ((g * SITE_PER_GROUP + i) % 50 === 0) {
        substitutions.push({
          src: { schema: 'deckhand/Passphrase/v1', name: `secret-${g % SECRETS}`, path: '.' },
          dest: { path: '.credentials.password' }
        })
      }
      docs.push({
        schema: 'bench/Server/v1',
        metadata: meta(`server-${g}-site-${i}`, 'site', {
          labels: { site: `s${i}` },
          layeringDefinition: {
            layer: 'site',
            parentSelector: { group, tier: 'region' },
            actions: [{ method: 'merge', path: '.' }, { method: 'replace', path: '.env' }]
          },
          substitutions
        }),
        data: {
          name: `server-${g}-${i}`,
          replicas: 1 + (i % 3),
          env: [{ name: 'INDEX', value: String(i) }],
          url: 'https://DOMAIN/api',
          network: { mtu: 9000 }
        }
      })
    }
  }
  return { yaml: emitYamlStream(docs), total: docs.length, returned: docs.length - abstract }
}

function median (values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

async function timeGet (url: string): Promise<{ ms: number, bytes: number, docs: number }> {
  const started = performance.now()
  const res = await request(url)
  const text = await res.body.text()
  const ms = performance.now() - started
  if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${text.slice(0, 500)}`)
  const docs = text === '' ? 0 : text.split('\n---\n').length
  return { ms, bytes: text.length, docs }
}

async function benchSize (n: number, runs: number): Promise<void> {
  const store = await startStore(loadConfig({
    HOST: '127.0.0.1', PORT: '0', STORE_DATA_DIR: ':memory:', LOG_LEVEL: 'silent', STORE_BODY_LIMIT_BYTES: String(512 * 1024 * 1024)
  }))
  try {
    const site = syntheticSite(n)
    const headers = { 'content-type': 'application/x-yaml' }
    const started = performance.now()
    const put = await request(`${store.url}/buckets/site/documents`, { method: 'PUT', headers, body: site.yaml })
    await put.body.text()
    if (put.statusCode !== 200) throw new Error(`PUT answered ${put.statusCode}`)
    const putMs = performance.now() - started

    const cold: number[] = []
    const warm: number[] = []
    let last = { ms: 0, bytes: 0, docs: 0 }
    // run 0 only warms the JIT and is not reported; every later run renders a revision never rendered before
    for (let r = 0; r <= runs; r++) {
      // a fresh revision (another small bucket changes) so nothing about this render is cached
      const markerYaml = 'schema: bench/Marker/v1\n' +
        'metadata: {schema: metadata/Document/v1, name: marker, storagePolicy: cleartext, layeringDefinition: {layer: site}}\n' +
        `data: {run: ${r}}\n`
      const marker = await request(`${store.url}/buckets/marker/documents`, { method: 'PUT', headers, body: markerYaml })
      await marker.body.text()
      const revision = 2 + r
      const url = `${store.url}/revisions/${revision}/rendered-documents?cleartext-secrets=true`
      last = await timeGet(url)
      if (last.docs !== site.returned + 1) throw new Error(`expected ${site.returned + 1} rendered documents, got ${last.docs}`)
      const again = await timeGet(url)
      if (r === 0) continue
      cold.push(last.ms)
      warm.push(again.ms)
    }
    const redacted = await timeGet(`${store.url}/revisions/${2 + runs}/rendered-documents`)
    const docsPerSec = (ms: number): string => Math.round(last.docs / (ms / 1000)).toLocaleString('en-US')
    process.stdout.write([
      `documents: ${site.total} stored, ${last.docs} rendered (${(last.bytes / 1024 / 1024).toFixed(1)} MiB of YAML); PUT ${Math.round(putMs)} ms`,
      `  cold render (fresh revision, median of ${runs}): ${median(cold).toFixed(0)} ms  → ${docsPerSec(median(cold))} docs/s   [runs: ${cold.map((m) => m.toFixed(0)).join(', ')} ms]`,
      `  warm render (render cache hit, median of ${runs}): ${median(warm).toFixed(0)} ms  → ${docsPerSec(median(warm))} docs/s`,
      `  redacted (cleartext-secrets absent: a separate cache entry, so this renders again): ${redacted.ms.toFixed(0)} ms`,
      ''
    ].join('\n') + '\n')
  } finally {
    await store.close()
  }
}

if (import.meta.main) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0)
  for (const n of sizes.length > 0 ? sizes : [2000, 20000]) await benchSize(n, 5)
}
