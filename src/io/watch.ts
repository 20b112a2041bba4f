/**
 * The loop of `status --watch`: print, wait, print again, until Ctrl-C. The wait and the terminal
 * are edges a test replaces (RunContext.ticker), so the loop runs a counted number of rounds there.
 */
export interface Ticker {
  /** Waits `ms`; false when the user interrupted (SIGINT) and the loop must end. */
  readonly sleep: (ms: number) => Promise<boolean>;
  /** Whether stdout is a terminal: only then is the screen cleared between rounds. */
  readonly tty: boolean;
  /** Called once the loop ends (the process ticker removes its SIGINT handler). */
  readonly stop?: () => void;
}

/** Moves the cursor home and clears the screen (what `watch` and `kubectl get -w` terminals use). */
export const CLEAR_SCREEN = '\u001b[H\u001b[2J';

/**
 * This process: a timer that SIGINT (Ctrl-C) cuts short. The handler is installed for the whole loop,
 * so Ctrl-C while a round is being read ends the loop after that round instead of killing the process.
 */
export function processTicker(): Ticker {
  let interrupted = false;
  let wake: (() => void) | undefined;
  const onInterrupt = () => {
    interrupted = true;
    wake?.();
  };
  process.on('SIGINT', onInterrupt);
  return {
    tty: process.stdout.isTTY === true,
    sleep: (ms) =>
      new Promise<boolean>((resolve) => {
        if (interrupted) return resolve(false);
        const timer = setTimeout(() => resolve(true), ms);
        wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
      }),
    stop: () => void process.removeListener('SIGINT', onInterrupt),
  };
}

/** Runs `round` every `seconds` until the ticker says stop; each round's text replaces the last on a terminal. */
export async function watchLoop(
  ticker: Ticker,
  seconds: number,
  write: (text: string) => void,
  round: () => Promise<string>,
): Promise<void> {
  try {
    for (;;) {
      const text = await round();
      write(ticker.tty ? CLEAR_SCREEN + text : text);
      if (!(await ticker.sleep(seconds * 1000))) return;
    }
  } finally {
    ticker.stop?.();
  }
}
