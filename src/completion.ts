import type { Command, Option } from 'commander';

/**
 * Shell completion scripts generated from the commander program itself, so a new command or
 * option is completed without anyone editing a script. Loaded only by `rollgen completion`.
 */
export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly Option[];
}

export function completionScript(program: Command, shell: Shell): string {
  const bin = program.name();
  const commands: CommandSpec[] = program.commands.map((c) => ({
    name: c.name(),
    description: c.description(),
    // Program options (--debug) are accepted after the command too; --version is not worth offering there.
    options: [...c.options, ...program.options.filter((o) => o.long !== '--version')],
  }));
  if (shell === 'bash') return bash(bin, commands);
  return shell === 'zsh' ? zsh(bin, commands) : fish(bin, commands);
}

const takesValue = (o: Option) => o.required || o.optional;
const flags = (o: Option) => [o.short, o.long].filter((f): f is string => f !== undefined);

function bash(bin: string, commands: readonly CommandSpec[]): string {
  const fn = `_${bin.replace(/\W/g, '_')}`;
  const cases = commands.map((c) => `    ${c.name}) opts="${c.options.flatMap(flags).join(' ')} --help" ;;`);
  const choices = unique(commands.flatMap((c) => c.options.filter((o) => o.argChoices)));
  const choiceCases = choices.map(
    (o) => `    ${flags(o).join('|')}) COMPREPLY=($(compgen -W "${o.argChoices!.join(' ')}" -- "$cur")); return ;;`,
  );
  return [
    `# ${bin} completion for bash. Load it with: source <(${bin} completion bash)`,
    `${fn}() {`,
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts=""',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')}" -- "$cur")); return`,
    '  fi',
    '  case "$prev" in',
    ...choiceCases,
    '  esac',
    '  case "${COMP_WORDS[1]}" in',
    ...cases,
    '  esac',
    '  case "$cur" in',
    '    -*) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;',
    '    *) COMPREPLY=($(compgen -f -- "$cur")) ;;',
    '  esac',
    '}',
    `complete -o default -F ${fn} ${bin}`,
    '',
  ].join('\n');
}

function zsh(bin: string, commands: readonly CommandSpec[]): string {
  const fn = `_${bin.replace(/\W/g, '_')}`;
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const zdesc = (s: string) => s.replace(/([[\]:\\])/g, '\\$1');
  const spec = (o: Option) =>
    flags(o).map((f) => {
      const value = o.argChoices ? `:value:(${o.argChoices.join(' ')})` : takesValue(o) ? ':value:_files' : '';
      return quote(`${f}[${zdesc(o.description)}]${value}`);
    });
  const cases = commands.map(
    (c) => `    ${c.name}) _arguments ${[...c.options.flatMap(spec), quote('*:app or directory:_files')].join(' ')} ;;`,
  );
  return [
    `#compdef ${bin}`,
    `# ${bin} completion for zsh. Save it as _${bin} in a directory of $fpath, or: source <(${bin} completion zsh)`,
    `${fn}() {`,
    '  local -a commands',
    `  commands=(${commands.map((c) => quote(`${c.name}:${c.description.replace(/:/g, '\\:')}`)).join(' ')})`,
    "  if (( CURRENT == 2 )); then _describe 'command' commands; return; fi",
    '  local cmd=$words[2]',
    '  shift words; (( CURRENT-- ))',
    '  case $cmd in',
    ...cases,
    '  esac',
    '}',
    `if [ "$funcstack[1]" = "${fn}" ]; then ${fn} "$@"; else compdef ${fn} ${bin}; fi`,
    '',
  ].join('\n');
}

function fish(bin: string, commands: readonly CommandSpec[]): string {
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const option = (command: string, o: Option) => {
    const parts = [`complete -c ${bin} -n ${quote(`__fish_seen_subcommand_from ${command}`)}`];
    if (o.short) parts.push(`-s ${o.short.slice(1)}`);
    if (o.long) parts.push(`-l ${o.long.slice(2)}`);
    if (o.argChoices) parts.push(`-x -a ${quote(o.argChoices.join(' '))}`);
    else if (takesValue(o)) parts.push('-r -F');
    return [...parts, `-d ${quote(o.description)}`].join(' ');
  };
  return [
    `# ${bin} completion for fish. Save it as ~/.config/fish/completions/${bin}.fish`,
    ...commands.map((c) => `complete -c ${bin} -f -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description)}`),
    ...commands.flatMap((c) => c.options.map((o) => option(c.name, o))),
    '',
  ].join('\n');
}

/** The same option added to several commands (--removal) gets one case. */
function unique(options: readonly Option[]): Option[] {
  return [...new Map(options.map((o) => [o.flags, o])).values()];
}
