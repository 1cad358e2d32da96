export function derivePostgresSchema(text: string): string;
