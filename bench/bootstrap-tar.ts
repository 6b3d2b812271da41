// Benchmark of the join payload's archive (issue 27): the bootstrap service's own ustar writer against tar-stream,
// each followed by the same gzip on zlib's thread pool, for the example site's payload (27 small files) and for a
// payload carrying one large HostSystem file. Prints the median time of each over several rounds.
// tar-stream is not a dependency of the service (ours was kept, being faster); to measure it, install it beside:
//   npm install --no-save tar-stream@3.2.2 && node bench/bootstrap-tar.ts [rounds]
// or point TAR_STREAM at an install elsewhere (its index.js), leaving this checkout's node_modules as it is.
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { tar, tarGz, type TarEntry } from '@slipway/bootstrap/tar'

const gzipAsync = promisify(gzip)
const ROUNDS = Number(process.argv[2] ?? 15)
const NOW = new Date('2026-01-02T03:04:05Z')

/** tar-stream's packer, or undefined when it is not installed (a name in a variable: it is no dependency). */
async function loadTarStream (): Promise<{ pack: () => any } | undefined> {
  const name = process.env.TAR_STREAM ?? 'tar-stream'
  try {
    return await import(name)
  } catch {
    return undefined
  }
}

/** The entries as a tar archive written by tar-stream, with the same header fields as ours (root, mtime, mode). */
async function tarStreamTar (tarStream: { pack: () => any }, entries: TarEntry[], mtime: Date): Promise<Buffer> {
  const pack = tarStream.pack()
  const chunks: Buffer[] = []
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (chunk: Buffer) => chunks.push(chunk))
    pack.on('end', resolve)
    pack.on('error', reject)
  })
  for (const entry of entries) {
    const header = { name: entry.path, mode: entry.mode, mtime, uname: 'root', gname: 'root', uid: 0, gid: 0 }
    if (entry.symlink !== undefined) pack.entry({ ...header, type: 'symlink', linkname: entry.symlink })
    else pack.entry(header, Buffer.from(entry.content as Buffer | string | undefined ?? ''))
  }
  pack.finalize()
  await done
  return Buffer.concat(chunks)
}

const tarStreamGz = async (tarStream: { pack: () => any }, entries: TarEntry[], mtime: Date): Promise<Buffer> =>
  await gzipAsync(await tarStreamTar(tarStream, entries, mtime))

/** 27 entries of the sizes the example site's payload has: configuration files, certificates, wrapper scripts. */
function examplePayload (): TarEntry[] {
  const entries: TarEntry[] = []
  for (let i = 0; i < 23; i++) {
    entries.push({ path: `etc/kubernetes/file-${i}.conf`, mode: 0o644, content: `line ${i}\n`.repeat(40 + i * 5) })
  }
  for (let i = 0; i < 4; i++) {
    entries.push({ path: `usr/local/bin/tool-${i}`, mode: 0o755, content: '#!/usr/bin/env bash\necho tool\n'.repeat(12) })
  }
  return entries
}

/** The example's entries and one large file of text-like bytes (it compresses as a real binary roughly would). */
function largePayload (mib: number): TarEntry[] {
  const big = Buffer.alloc(mib * 1024 * 1024)
  let seed = 7
  for (let i = 0; i < big.length; i++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; big[i] = 32 + (seed >> 16) % 64 }
  return [...examplePayload(), { path: 'opt/large.bin', mode: 0o644, content: big }]
}

async function median (run: () => Promise<unknown>, rounds: number): Promise<number> {
  await run()
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] as number
}

const tarStream = await loadTarStream()
const cases: Array<[string, TarEntry[], number]> = [
  ['example payload (27 files)', examplePayload(), ROUNDS * 20],
  ['with one 48 MiB file', largePayload(48), Math.max(3, Math.floor(ROUNDS / 3))]
]
for (const [name, entries, rounds] of cases) {
  for (const [stage, ourRun, theirRun] of [
    ['tar', async () => tar(entries, NOW), async (t: { pack: () => any }) => await tarStreamTar(t, entries, NOW)],
    ['tar + gzip', async () => await tarGz(entries, NOW), async (t: { pack: () => any }) => await tarStreamGz(t, entries, NOW)]
  ] as const) {
    const ours = await median(ourRun, rounds)
    const theirs = tarStream === undefined ? undefined : await median(async () => await theirRun(tarStream), rounds)
    const other = theirs === undefined ? 'tar-stream not installed' : `tar-stream ${theirs.toFixed(3)} ms`
    console.log(`${name}, ${stage}: ours ${ours.toFixed(3)} ms, ${other} (median of ${rounds})`)
  }
}
if (tarStream !== undefined) {
  // the same files come out of both archives
  const ours = await tarGz(examplePayload(), NOW)
  const theirs = await tarStreamGz(tarStream, examplePayload(), NOW)
  console.log(`archive sizes for the example payload: ours ${ours.length} bytes, tar-stream ${theirs.length} bytes`)
}
