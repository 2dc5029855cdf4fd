/**
 * `npm start` runs the API and the worker with an IPC channel to the launcher. The channel closes
 * when the launcher ends, however it ends (a SIGKILL or an out-of-memory kill included, when it
 * cannot stop its children itself): `stop` then stops the process as SIGTERM would, so no child
 * runs on unsupervised and holds the port the next start needs. Without a channel (`npm run api`,
 * `npm run worker`, a process manager) nothing changes.
 */
export function stopWhenLauncherGone(stop: () => void): void {
  if (!process.send) return;
  // The launcher went while this process was starting.
  if (!process.connected) return stop();
  process.once('disconnect', stop);
  // The channel alone must not keep the process running.
  process.channel?.unref();
}
