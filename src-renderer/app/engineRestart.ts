/**
 * Noticing that the engine was restarted. The engine's `hello` names its run
 * (`instance`) and says whether it replaced one that died (`restarted`); the
 * page remembers the last instance it talked to for the tab's life. When the
 * web connection drops, the page polls its own URL and reloads once the
 * server answers again (Electron's main reloads the window itself after it
 * restarts the engine), so everything is fetched fresh from the new engine.
 */

const KEY = 'sandglass.engineInstance';

/** True when this page talked to an earlier engine that has since been replaced after a crash. */
export function noteEngine(hello: { instance?: string; restarted?: boolean }): boolean {
  let before: string | null = null;
  try {
    before = sessionStorage.getItem(KEY);
    if (hello.instance) sessionStorage.setItem(KEY, hello.instance);
  } catch {
    // Storage refused (private mode): the banner is then only missed, nothing breaks.
  }
  return hello.restarted === true && before !== null && before !== hello.instance;
}

/** Web mode: once the server answers again, reload the page to reconnect to the new engine. */
export function reloadWhenServerReturns(intervalMs = 1000): void {
  const probe = (): void => {
    fetch(window.location.href, { cache: 'no-store' })
      .then((res) => {
        if (res.ok) window.location.reload();
        else setTimeout(probe, intervalMs);
      })
      .catch(() => setTimeout(probe, intervalMs));
  };
  setTimeout(probe, intervalMs);
}
