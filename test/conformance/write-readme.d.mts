export function readmeSection(readme: string): string | undefined;
export function withSection(readme: string, table: string): string;
