// `npm run test:kubernetes`: the bootstrap service against a real kube-apiserver, and stub-site's imitation of the
// Kubernetes API held to it. One API server per file, files one after another on a small machine.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'kubernetes-real',
    root: import.meta.dirname,
    include: ['test/real/**/*.test.ts', 'test/diff/**/*.test.ts'],
    fileParallelism: false,
    // a cold build of kube-apiserver takes many minutes; a cached one seconds
    testTimeout: 120_000,
    hookTimeout: 1_800_000,
    reporters: ['default']
  }
})
