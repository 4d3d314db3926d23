/** Routes terminal output and exits from engine events straight to xterm views, outside the store. */
type DataListener = (data: string) => void;
type ExitListener = (status: number) => void;

const data = new Map<string, DataListener>();
const exits = new Map<string, ExitListener>();
/** Output that arrived before its view subscribed (between openTerminal's reply and mount). */
const early = new Map<string, string[]>();

export function subscribeTerminal(
  terminalId: string,
  onData: DataListener,
  onExit: ExitListener,
): () => void {
  data.set(terminalId, onData);
  exits.set(terminalId, onExit);
  for (const chunk of early.get(terminalId) ?? []) onData(chunk);
  early.delete(terminalId);
  return () => {
    data.delete(terminalId);
    exits.delete(terminalId);
  };
}

export function deliverTerminalData(terminalId: string, chunk: string): void {
  const listener = data.get(terminalId);
  if (listener) listener(chunk);
  else {
    const list = early.get(terminalId) ?? [];
    if (list.length < 1000) list.push(chunk);
    early.set(terminalId, list);
  }
}

export function deliverTerminalExit(terminalId: string, status: number): void {
  exits.get(terminalId)?.(status);
  early.delete(terminalId);
}
