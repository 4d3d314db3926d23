/** How python3 appears in a sandbox: a registry stub (`#!sandglass python`) at the usual paths. */
export const PYTHON_PROGRAM = 'python';

export const PYTHON_LINKS: readonly string[] = [
  '/usr/bin/python3',
  '/usr/bin/python',
  '/bin/python3',
  '/bin/python',
];
