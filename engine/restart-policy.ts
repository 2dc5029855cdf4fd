/**
 * When to start a process again after it died (the launcher's children, the API's cluster
 * processes): soon after a single crash, with a doubling pause while crashes come in quick
 * succession, and not at all after MAX_CRASHES within WINDOW_MS. A process that crashes that often
 * is failing at start-up (a bad setting, a missing service) and restarting it only hides that.
 */
const MAX_CRASHES = 5;
const WINDOW_MS = 60_000;
const FIRST_PAUSE_MS = 250;

export class RestartPolicy {
  private crashes: number[] = [];

  /** Records a crash; returns the pause before the next start, or undefined to give up. */
  afterCrash(now = Date.now()): number | undefined {
    this.crashes = [...this.crashes.filter((at) => now - at < WINDOW_MS), now];
    if (this.crashes.length >= MAX_CRASHES) return undefined;
    return FIRST_PAUSE_MS * 2 ** (this.crashes.length - 1);
  }

  /** For log lines: how many crashes the give-up rule counts. */
  static readonly limit = `${MAX_CRASHES} crashes within ${WINDOW_MS / 1000} s`;
}
