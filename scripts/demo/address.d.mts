export function demoAddress(env?: Record<string, string | undefined>): { host: string; port: number; url: string; everyInterface: boolean; nextArgs: string[] };
