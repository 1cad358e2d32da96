/**
 * " (about N human labels)" for `questions` more questions at `perQuestion` labels each, as the CLI
 * and the Decisions card say a decision's projection; nothing when either is unknown or zero.
 */
export function labelsNote(questions: number, perQuestion: number): string {
  return questions > 0 && perQuestion > 0 ? ` (about ${Math.round(questions * perQuestion)} human labels)` : "";
}
