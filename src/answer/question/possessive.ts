/** "Nike" → "Nike's", "MGM Resorts" → "MGM Resorts'": how an answer says whose figure it is. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}
