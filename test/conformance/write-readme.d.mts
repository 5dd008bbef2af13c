/** The file that shows the conformance tables, from the repository's root. */
export const guide: string;
export function readmeSection(readme: string): string | undefined;
export function withSection(readme: string, table: string): string;
