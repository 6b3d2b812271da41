// Preloaded (--import) into every process the stack starts. The processes run in a process group of their own, so
// that a terminal's Ctrl-C reaches only the stack runner, which then stops each of them once and gracefully; when
// the runner goes away without doing so (kill -9, a crash), its IPC channel closes and the process stops itself as
// on SIGTERM, so no process outlives the stack.
if (process.channel !== undefined) {
  process.once('disconnect', () => { process.kill(process.pid, 'SIGTERM') })
  // the channel alone must not keep a process alive that would otherwise exit
  process.channel.unref()
}
