// The store's revision list as the orchestrator reads it on nearly every request (the buffer's status, staging,
// commits, new actions): parsed whole against read in pieces with each entry kept by its text
// (packages/orchestrator/src/clients/revision-list.ts). For lists of 200, 1,000 and 5,000 revisions in the stand-in's
// layout, the median time of a read that finds one new revision and one newly tagged one (`READS`, default 40).
// Run: node bench/revisions.ts
import { parseYamlDocument } from '@slipway/common'
import { createRevisionListReader } from '@slipway/orchestrator/revision-list'
import { emitYaml } from '@slipway/stub-store'
import { fixed, median } from './proc.ts'

const READS = Number(process.env.READS ?? 40)

function listText (count: number, committed: number): string {
  return emitYaml({
    count,
    results: Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      createdAt: new Date(Date.UTC(2026, 4, 1) + i * 4000).toISOString().replace('Z', '123'),
      buckets: [`soak-${i % 4}`],
      tags: i + 1 <= committed ? ['committed'] : []
    }))
  })
}

/** Median milliseconds of `read` over texts that each add a revision and tag the one before it. */
function timeReads (start: number, read: (text: string) => unknown): number {
  const times: number[] = []
  for (let i = 0; i < READS; i++) {
    const text = listText(start + i + 1, start + i)
    const began = performance.now()
    read(text)
    times.push(performance.now() - began)
  }
  return median(times)
}

console.log(`revision list: median of ${READS} reads, each with one new and one newly tagged revision`)
for (const count of [200, 1000, 5000]) {
  const whole = timeReads(count, (text) => parseYamlDocument(text))
  const reader = createRevisionListReader({ parse: parseYamlDocument, toItem: (entry) => entry })
  reader.read(listText(count, count - 1))
  const pieces = timeReads(count, (text) => reader.read(text))
  const kib = Buffer.byteLength(listText(count, count)) / 1024
  console.log(`  ${String(count).padStart(5)} revisions (${fixed(kib, 0)} KiB): parsed whole ${fixed(whole, 2)} ms, ` +
    `in pieces ${fixed(pieces, 2)} ms (${fixed(whole / pieces, 0)}× less)`)
}
