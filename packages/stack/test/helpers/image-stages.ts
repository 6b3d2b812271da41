// Reproduces the Dockerfile's stages without a Docker engine: each stage is a folder standing for its file system,
// its COPY lines copy from the build context (the repository's files as a fresh clone has them, less .dockerignore)
// or from an earlier stage, and its RUN lines run when they are npm commands. Any other instruction, RUN line or
// COPY form the reproduction does not know fails loudly, so that the Dockerfile cannot drift from this check.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'

export interface Stage { name: string, root: string, workdir: string, env: Record<string, string> }

/** RUN lines that only prepare the image's own system folders, which the reproduction has no use for. */
const SYSTEM_ONLY_RUNS = new Set(['mkdir -p /data && chown node:node /data'])
const IGNORED = new Set(['USER', 'VOLUME', 'CMD', 'EXPOSE', 'LABEL', 'HEALTHCHECK', 'ENTRYPOINT'])

/** The Dockerfile as instructions: continuation lines joined, comments and blank lines dropped. */
export function instructions (text: string): Array<{ keyword: string, args: string }> {
  return text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const space = line.indexOf(' ')
    return { keyword: line.slice(0, space).toUpperCase(), args: line.slice(space + 1).trim() }
  })
}

/** A .dockerignore pattern as a regular expression over context-relative paths. */
function patternRegExp (pattern: string): RegExp {
  if (pattern.startsWith('!')) throw new Error(`.dockerignore exceptions are not reproduced: ${pattern}`)
  const clean = posix.normalize(pattern.replace(/^\/+/, '')).replace(/\/+$/, '')
  let source = ''
  for (let i = 0; i < clean.length; i++) {
    const rest = clean.slice(i)
    if (rest.startsWith('**/')) { source += '(?:.*/)?'; i += 2 } else if (rest.startsWith('**')) { source += '.*'; i += 1 } else if (clean[i] === '*') source += '[^/]*'
    else if (clean[i] === '?') source += '[^/]'
    else source += (clean[i] ?? '').replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** Whether .dockerignore's patterns leave `path` (or a folder above it) out of the build context. */
export function dockerIgnores (patterns: string[], path: string): boolean {
  const regexps = patterns.map(patternRegExp)
  const parts = path.split('/')
  return parts.some((_, i) => regexps.some((regexp) => regexp.test(parts.slice(0, i + 1).join('/'))))
}

/** The build context of a fresh clone: the repository's files that git knows or would add, less .dockerignore. */
export function buildContext (repoRoot: string): string[] {
  const patterns = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repoRoot, encoding: 'utf8' })
  return files.split('\0').filter((path) => path !== '' && existsSync(join(repoRoot, path)) && !dockerIgnores(patterns, path))
}

/** Builds every stage of `dockerfile` under `workRoot`; answers the stages by name, the last one as `final`. */
export function reproduceStages (options: {
  repoRoot: string
  dockerfile: string
  workRoot: string
  env: NodeJS.ProcessEnv
}): Map<string, Stage> {
  const context = buildContext(options.repoRoot)
  const stages = new Map<string, Stage>()
  let stage: Stage | undefined
  const inStage = (current: Stage, path: string): string =>
    join(current.root, posix.isAbsolute(path) ? path : posix.join(current.workdir, path))

  function copy (current: Stage, args: string): void {
    const words = args.split(/\s+/)
    const from = words[0]?.startsWith('--from=') === true ? words.shift()?.slice('--from='.length) : undefined
    if (words.some((word) => word.startsWith('--'))) throw new Error(`COPY option not reproduced: ${args}`)
    const dest = words.pop() ?? ''
    for (const source of words) {
      if (/[*?[]/.test(source)) throw new Error(`COPY globs are not reproduced: ${source}`)
      const target = inStage(current, dest)
      if (from !== undefined) {
        const origin = stages.get(from)
        if (origin === undefined) throw new Error(`COPY --from an unknown stage: ${from}`)
        // a folder's contents land in the destination; symbolic links (npm's workspace links) are kept as they are
        cpSync(join(origin.root, source), target, { recursive: true, verbatimSymlinks: true })
        continue
      }
      const prefix = posix.normalize(source).replace(/\/$/, '')
      const matches = context.filter((path) => path === prefix || path.startsWith(`${prefix}/`))
      if (matches.length === 0) throw new Error(`COPY ${source}: nothing in the build context`)
      for (const path of matches) {
        const into = path === prefix
          ? (dest.endsWith('/') || words.length > 1 ? join(target, posix.basename(path)) : target)
          : join(target, path.slice(prefix.length + 1))
        mkdirSync(dirname(into), { recursive: true })
        cpSync(join(options.repoRoot, path), into)
      }
    }
  }

  for (const { keyword, args } of instructions(readFileSync(options.dockerfile, 'utf8'))) {
    if (keyword === 'FROM') {
      const name = /\sAS\s+(\S+)$/i.exec(args)?.[1] ?? `stage${stages.size}`
      stage = { name, root: join(options.workRoot, name), workdir: '/', env: {} }
      mkdirSync(stage.root, { recursive: true })
      stages.set(name, stage)
      continue
    }
    if (stage === undefined) throw new Error(`${keyword} before FROM`)
    if (keyword === 'WORKDIR') { stage.workdir = posix.resolve(stage.workdir, args); mkdirSync(inStage(stage, '.'), { recursive: true }) } else if (keyword === 'ENV') {
      for (const match of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[match[1] ?? ''] = (match[2] ?? '').replace(/^"|"$/g, '')
    } else if (keyword === 'COPY') copy(stage, args)
    else if (keyword === 'RUN') {
      if (SYSTEM_ONLY_RUNS.has(args)) continue
      if (!args.startsWith('npm ')) throw new Error(`RUN line not reproduced: ${args}`)
      execFileSync('sh', ['-c', args], { cwd: inStage(stage, '.'), env: { ...options.env, ...stage.env }, stdio: 'pipe' })
    } else if (!IGNORED.has(keyword)) throw new Error(`Dockerfile instruction not reproduced: ${keyword}`)
  }
  if (stage !== undefined) stages.set('final', stage)
  return stages
}

/** The package folders of a stage's workdir that hold a node_modules of their own. */
export function nestedNodeModules (stage: Stage): string[] {
  const packages = join(stage.root, stage.workdir, 'packages')
  if (!existsSync(packages)) return []
  return readdirSync(packages).filter((name) => existsSync(join(packages, name, 'node_modules')) && statSync(join(packages, name, 'node_modules')).isDirectory())
}
