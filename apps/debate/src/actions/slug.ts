/** A slug from a motion: "This house would halt AI development" -> "halt-ai-development". */
export function slugFromMotion(motion: string): string {
  const words = motion
    .toLowerCase()
    .replace(/^\s*this house (would|believes that|believes)\s+/, "")
    .normalize("NFKD")
    .replace(/[^a-z0-9\s-]/g, " ")
    .split(/[\s-]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 60) break;
    slug = next;
  }
  return slug || "debate";
}
