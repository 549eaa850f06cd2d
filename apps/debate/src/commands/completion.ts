import type { Command } from "commander";
import { Argument } from "commander";
import type { CliIO } from "../output.js";
import { declareInFull } from "./lazy.js";

/** The program's commands and each one's long options, read from commander (never listed by hand). */
function commandTable(program: Command): Array<{ name: string; description: string; options: string[] }> {
  return program.commands.map((c) => ({
    name: c.name(),
    description: c.description().split("\n")[0] ?? "",
    options: [...c.options.map((o) => o.long).filter((l): l is string => Boolean(l)), "--help"],
  }));
}

/** bash: commands first, then the command's options after `-`, else folders and files. */
export function bashCompletion(program: Command): string {
  const table = commandTable(program);
  const cases = table.map((c) => `    ${c.name}) opts="${c.options.join(" ")}" ;;`).join("\n");
  return `# debate completion for bash: add to ~/.bashrc
#   source <(debate completion bash)
_debate() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${table.map((c) => c.name).join(" ")} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _debate debate
`;
}

/** zsh: the bash function through zsh's bashcompinit (one definition, two shells). */
export function zshCompletion(program: Command): string {
  return `# debate completion for zsh: add to ~/.zshrc
#   source <(debate completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program).split("\n").slice(2).join("\n")}`;
}

/** fish: each command with its description, each command's options once it is given. */
export function fishCompletion(program: Command): string {
  const quote = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const lines = [
    "# debate completion for fish: debate completion fish > ~/.config/fish/completions/debate.fish",
  ];
  lines.push("complete -c debate -f");
  for (const c of commandTable(program)) {
    lines.push(`complete -c debate -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description)}`);
    for (const option of c.options)
      lines.push(`complete -c debate -n '__fish_seen_subcommand_from ${c.name}' -l ${option.slice(2)}`);
    lines.push(`complete -c debate -n '__fish_seen_subcommand_from ${c.name}' -F`);
  }
  return `${lines.join("\n")}\n`;
}

/** `debate completion <bash|zsh|fish>`: prints the shell's completion script. */
export function registerCompletion(program: Command, io: CliIO): void {
  program
    .command("completion")
    .description("print shell completion for bash, zsh or fish")
    .addArgument(new Argument("<shell>", "the shell").choices(["bash", "zsh", "fish"]))
    .addHelpText(
      "after",
      `
Examples:
  $ debate completion bash > ~/.local/share/bash-completion/completions/debate
  $ source <(debate completion zsh)           # in ~/.zshrc
  $ debate completion fish > ~/.config/fish/completions/debate.fish`,
    )
    .action(async (shell: "bash" | "zsh" | "fish") => {
      // Every command's options are listed: those declared later are declared now.
      await declareInFull(program);
      const make = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }[shell];
      io.stdout.write(make(program));
    });
}
