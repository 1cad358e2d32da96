/** A project's name as it may stand in a file or folder name: runs of other characters become "_". */
export function fileSafeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_") || "project";
}
