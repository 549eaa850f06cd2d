import ts from "typescript";

/** A string in source code that names a format. */
export interface NameHit {
  line: number;
  text: string;
}

const STRING_TOKENS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
]);

// After these tokens a `/` starts a division, not a regular expression.
const BEFORE_DIVISION = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

/** True for the string of `from "x"`, `import "x"`, `import("x")` and `require("x")`: a module path. */
function isModuleSpecifier(before: readonly ts.SyntaxKind[], beforeText: readonly string[]): boolean {
  const last = before.at(-1);
  if (last === ts.SyntaxKind.FromKeyword || last === ts.SyntaxKind.ImportKeyword) return true;
  if (last !== ts.SyntaxKind.OpenParenToken) return false;
  return before.at(-2) === ts.SyntaxKind.ImportKeyword || beforeText.at(-2) === "require";
}

/**
 * The values of every string and template piece in `source` (comments are trivia, never tokens),
 * with their line, leaving out module specifiers. The scanner alone cannot tell a regular
 * expression from a division or a template's `}` from a block's, so both are decided here from
 * the tokens before.
 */
export function stringTokens(source: string): NameHit[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source);
  // Tokens come in order, so the line is counted on from the previous token.
  let line = 1;
  let counted = 0;
  const kinds: ts.SyntaxKind[] = [];
  const texts: string[] = [];
  // One entry per open `{` or `${`: true when it is a template substitution.
  const braces: boolean[] = [];
  const found: NameHit[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      if (!BEFORE_DIVISION.has(kinds.at(-1) ?? ts.SyntaxKind.Unknown)) kind = scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.OpenBraceToken) braces.push(false);
    else if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop() === true) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) braces.push(true);
    }
    if (kind === ts.SyntaxKind.TemplateHead) braces.push(true);
    if (STRING_TOKENS.has(kind) && !isModuleSpecifier(kinds, texts)) {
      const start = scanner.getTokenStart();
      for (; counted < start; counted++) if (source.charCodeAt(counted) === 10) line++;
      found.push({ line, text: scanner.getTokenValue() });
    }
    kinds.push(kind);
    texts.push(scanner.getTokenText());
  }
  return found;
}

/**
 * True when a string names a format: it is a registered name, holds `formal` or `crossfire` as a
 * word, or uses `review` as a format's name (`review:` or `review's`, as in a list of formats).
 */
export function namesFormat(text: string, registered: readonly string[]): boolean {
  return registered.includes(text) || /\b(formal|crossfire)\b/i.test(text) || /\breview(:|'s\b)/i.test(text);
}
