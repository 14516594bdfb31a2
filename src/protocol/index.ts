/** The zut extension protocol v2: frames, validation, line codec. Imports no `vscode`. */
export * from './frames';
export * from './parse';
export * from './codec';
