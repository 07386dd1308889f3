/**
 * Counts turns of the event loop (one per check phase, by a self-renewing setImmediate), so a test can
 * show that work let the loop turn, or did not, without looking at the clock.
 */
export function countEventLoopTurns(): { seen: () => number; stop: () => number } {
  let turns = 0;
  let counting = true;
  const countTurn = () => {
    if (!counting) return;
    turns += 1;
    setImmediate(countTurn);
  };
  setImmediate(countTurn);
  return {
    seen: () => turns,
    stop: () => {
      counting = false;
      return turns;
    },
  };
}
