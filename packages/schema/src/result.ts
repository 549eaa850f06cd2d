/** One problem found by a validator: where (a dotted path into the data) and what. */
export interface ValidationError {
  /** Dotted path of the offending field, e.g. `seats.proposition.adapter`; empty for the root. */
  path: string;
  /** A sentence a person can act on. */
  message: string;
  /** The JSON Schema keyword that failed (`required`, `enum`, `type`, ...). */
  keyword: string;
}

/** The outcome of a validation: the typed value, or every error found. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

interface CompiledValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

function pointerToPath(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function joinPath(parts: string[]): string {
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function valueAt(data: unknown, parts: string[]): unknown {
  let cur: unknown = data;
  for (const part of parts) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * The offending value for a message, cut to about 80 characters. The cut never splits a run of token
 * characters: this package cannot redact (secret shapes live in @debatekit/core, which depends on
 * it), so a key is either kept whole, for the caller's redaction to find, or dropped whole.
 */
function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return "(a value nested too deeply to show)"; // String() of it would overflow the stack too
  }
  if (text.length <= 80) return text;
  let end = 77;
  while (end > 0 && /[A-Za-z0-9._~+/=-]/.test(text[end - 1]!) && /[A-Za-z0-9._~+/=-]/.test(text[end]!)) end--;
  return `${text.slice(0, end)}...`;
}

function describe(error: AjvError, data: unknown): ValidationError {
  const parts = pointerToPath(error.instancePath);
  const got = valueAt(data, parts);
  const p = error.params;
  let path = joinPath(parts);
  let message: string;
  switch (error.keyword) {
    case "required":
      path = joinPath([...parts, String(p.missingProperty)]);
      message = "is required";
      break;
    case "additionalProperties":
      path = joinPath([...parts, String(p.additionalProperty)]);
      message = "is not a known field";
      break;
    case "enum":
      message = `must be one of ${(p.allowedValues as unknown[]).map((v) => quote(v)).join(", ")} (got ${quote(got)})`;
      break;
    case "const":
      message = `must be ${quote(p.allowedValue)} (got ${quote(got)})`;
      break;
    case "type":
      message = `must be ${String(p.type)} (got ${got === null ? "null" : Array.isArray(got) ? "array" : typeof got} ${quote(got)})`;
      break;
    case "pattern":
      message = `does not have the expected form ${String(p.pattern)} (got ${quote(got)})`;
      break;
    case "propertyNames":
      path = joinPath([...parts, String(p.propertyName)]);
      message = "is not an allowed key here";
      break;
    default:
      message = `${error.message ?? "is invalid"}${got !== undefined && typeof got !== "object" ? ` (got ${quote(got)})` : ""}`;
  }
  return { path, message, keyword: error.keyword };
}

/** Runs a compiled validator and turns its errors into readable ones. */
export function toResult<T>(validate: CompiledValidator, data: unknown): ValidationResult<T> {
  if (validate(data)) return { ok: true, value: data as T };
  const errors = (validate.errors ?? [])
    // "propertyNames" reports twice (the key, then the pattern on the key); keep the useful one.
    .filter(
      (e) =>
        !(
          e.keyword === "pattern" &&
          e.instancePath === "" &&
          e.params.pattern &&
          e.message?.includes("property name")
        ),
    )
    .map((e) => describe(e, data));
  const seen = new Set<string>();
  return {
    ok: false,
    errors: errors.filter((e) => {
      const key = `${e.path}\u0000${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  };
}

/** One line per error: "`path` message" (the root is shown as "(root)"). */
export function formatValidationErrors(errors: readonly ValidationError[]): string {
  return errors.map((e) => `\`${e.path || "(root)"}\` ${e.message}`).join("\n");
}
