/**
 * Contract constants: version, channel names and their check, endpoint path,
 * reply bounds. No imports, so a caller that needs only these (the CLI, the
 * preload) loads no schema code.
 */

/** Bumped on any incompatible change to methods, events or wire messages. */
export const API_VERSION = 2;

/** Where `run` keeps whole output streams asked for with `keepOutputOver`. */
export const KEPT_OUTPUT_DIR = '/tmp/.sandglass/out';

/** Every IPC channel name starts with this; the preload refuses others. */
export const CHANNEL_PREFIX = 'sandglass:';

/** IPC channels (Electron) and the WebSocket path (web mode). */
export const CHANNELS = {
  /** Renderer asks main for a MessagePort connected to the engine. */
  connect: 'sandglass:connect',
  /** Main hands the renderer a port (the message carries it). */
  port: 'sandglass:port',
  /** Native dialogs owned by main (export to host). */
  saveDialog: 'sandglass:save-dialog',
} as const;

/** Checks an IPC channel name against the contract's prefix (the preload's guard). */
export function isSandglassChannel(channel: unknown): channel is string {
  return (
    typeof channel === 'string' &&
    channel.startsWith(CHANNEL_PREFIX) &&
    channel.length > CHANNEL_PREFIX.length
  );
}

/** WebSocket endpoint path in web mode. */
export const WS_PATH = '/api';

/** WebSocket endpoint of JSON-RPC 2.0 (agents and SDKs), beside WS_PATH. */
export const RPC_WS_PATH = '/rpc';

/** Bounds that keep every reply small enough to serialise and send. */
export const LIMITS = {
  /** Bytes of a step's stdout or stderr kept at each end (head and tail). */
  outputPreviewBytes: 8 * 1024,
  /** Characters of a step's command line kept. */
  commandChars: 16 * 1024,
  /** Steps per `listSteps` page when the client does not say. */
  stepsPageDefault: 100,
  /** Most steps one `listSteps` page returns. */
  stepsPageMax: 500,
  /** Serialised size one `listSteps` page stays under (a page ends early past it). */
  stepsPageChars: 4 * 1024 * 1024,
  /** Changed paths a step lists itself (`stepChanges` pages them all). */
  stepChangedPaths: 50,
  /** Network records kept per step (later ones are counted, not kept). */
  stepNetworkRecords: 200,
  /** Entries per `diffSteps`/`stepChanges` page when the client does not say, and at most. */
  diffPageDefault: 200,
  diffPageMax: 2000,
  /** Files larger than this get no line counts in a diff (size and hash only). */
  diffLineBytes: 1024 * 1024,
  /** Text of each side `diffFile` returns at most. */
  diffFileBytes: 2 * 1024 * 1024,
  /** Terminal recording bytes kept per step. */
  recordingBytes: 1024 * 1024,
  /** Largest timeline file `saveTimeline`/`loadTimeline` carry as bytes over the wire. */
  timelineFileBytes: 128 * 1024 * 1024,
} as const;
