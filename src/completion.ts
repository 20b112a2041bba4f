import type { Argument, Command, Option } from 'commander';

/**
 * Shell completion scripts generated from the commander program itself, so a new command or
 * option is completed without anyone editing a script. Loaded only by `rollgen completion`.
 * Each place completes what can be known there and nothing where nothing can: choices, app names
 * (the script asks `rollgen completion SHELL --apps`, which reads rollgen.yaml only), directories
 * where a SOURCE may stand, files only for a value that is a file (`--config <file>`).
 */
export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/** What a value or a positional argument completes to. */
type Values =
  | { readonly kind: 'words'; readonly words: readonly string[] }
  | { readonly kind: 'files' }
  | { readonly kind: 'apps'; readonly directories: boolean }
  | { readonly kind: 'none' };

interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly Option[];
  readonly positional: Values;
}

export function completionScript(program: Command, shell: Shell): string {
  const bin = program.name();
  const commands: CommandSpec[] = program.commands.map((c) => ({
    name: c.name(),
    description: c.description(),
    // Program options (--debug) are accepted after the command too; --version is not worth offering there.
    options: [...c.options, ...program.options.filter((o) => o.long !== '--version')].filter((o) => !o.hidden),
    positional: positionalValues(c),
  }));
  if (shell === 'bash') return bashScript(bin, commands);
  return shell === 'zsh' ? zshScript(bin, commands) : fishScript(bin, commands);
}

/** An option's value: its choices, a file for `<file>`, `-` for `-f -`, else nothing to offer (a step, a header). */
function optionValues(o: Option): Values {
  if (o.argChoices) return { kind: 'words', words: o.argChoices };
  if (/<file>/.test(o.flags)) return { kind: 'files' };
  if (o.long === '--file') return { kind: 'words', words: ['-'] };
  return { kind: 'none' };
}

/** `[app...]`: app names, and directories where a SOURCE may stand instead (the commands with -f); `<shell>`: its choices. */
function positionalValues(c: Command): Values {
  const arg: Argument | undefined = c.registeredArguments[0];
  if (!arg) return { kind: 'none' };
  if (arg.argChoices) return { kind: 'words', words: arg.argChoices };
  if (arg.name() === 'app') return { kind: 'apps', directories: c.options.some((o) => o.long === '--file') };
  return { kind: 'none' };
}

const takesValue = (o: Option) => o.required || o.optional;
const flags = (o: Option) => [o.short, o.long].filter((f): f is string => f !== undefined);

/** The same option added to several commands (--removal) gets one case. */
function unique(options: readonly Option[]): Option[] {
  return [...new Map(options.map((o) => [o.flags, o])).values()];
}

/** The app names the script asks rollgen for; empty (and silent) outside a repository with rollgen.yaml. */
const appsCommand = (bin: string, shell: Shell) => `${bin} completion ${shell} --apps 2>/dev/null`;

function bashWords(v: Values, bin: string): string {
  switch (v.kind) {
    case 'words':
      return `COMPREPLY=($(compgen -W "${v.words.join(' ')}" -- "$cur"))`;
    case 'files':
      return 'COMPREPLY=($(compgen -f -- "$cur"))';
    case 'apps':
      return `COMPREPLY=($(compgen -W "$(${appsCommand(bin, 'bash')})" -- "$cur")${v.directories ? ' $(compgen -d -- "$cur")' : ''})`;
    case 'none':
      return 'COMPREPLY=()';
  }
}

function bashScript(bin: string, commands: readonly CommandSpec[]): string {
  const fn = `_${bin.replace(/\W/g, '_')}`;
  // An optional value (--watch [seconds]) may be followed by an app: only a required one owns the next word.
  const valued = unique(commands.flatMap((c) => c.options.filter((o) => o.required)));
  const valueCases = valued.map((o) => `    ${flags(o).join('|')}) ${bashWords(optionValues(o), bin)}; return ;;`);
  const optionCases = commands.map((c) => `    ${c.name}) opts="${c.options.flatMap(flags).join(' ')} --help" ;;`);
  const positionalCases = commands.map((c) => `    ${c.name}) ${bashWords(c.positional, bin)} ;;`);
  return [
    `# ${bin} completion for bash. Load it with: source <(${bin} completion bash)`,
    `${fn}() {`,
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts=""',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')}" -- "$cur")); return`,
    '  fi',
    '  case "$prev" in',
    ...valueCases,
    '  esac',
    '  case "${COMP_WORDS[1]}" in',
    ...optionCases,
    '  esac',
    '  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi',
    '  case "${COMP_WORDS[1]}" in',
    ...positionalCases,
    '  esac',
    '}',
    // No `-o default`: where rollgen offers nothing (a step number), bash must not fall back to files.
    `complete -o filenames -F ${fn} ${bin}`,
    '',
  ].join('\n');
}

function zshAction(v: Values, fn: string): string {
  switch (v.kind) {
    case 'words':
      return `(${v.words.join(' ')})`;
    case 'files':
      return '_files';
    case 'apps':
      return v.directories ? `${fn}_apps_or_dirs` : `${fn}_apps`;
    case 'none':
      return ' ';
  }
}

function zshScript(bin: string, commands: readonly CommandSpec[]): string {
  const fn = `_${bin.replace(/\W/g, '_')}`;
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const zdesc = (s: string) => s.replace(/([[\]:\\])/g, '\\$1');
  const spec = (o: Option) =>
    flags(o).map((f) => {
      const value = takesValue(o)
        ? `${o.optional ? '::' : ':'}${o.long!.slice(2)}:${zshAction(optionValues(o), fn)}`
        : '';
      return quote(`${f}[${zdesc(o.description)}]${value}`);
    });
  const positional = (c: CommandSpec) =>
    c.positional.kind === 'none'
      ? []
      : [quote(`*:${c.positional.kind === 'apps' ? 'app' : 'value'}:${zshAction(c.positional, fn)}`)];
  const cases = commands.map(
    (c) => `    ${c.name}) _arguments ${[...c.options.flatMap(spec), ...positional(c)].join(' ')} ;;`,
  );
  return [
    `#compdef ${bin}`,
    `# ${bin} completion for zsh. Save it as _${bin} in a directory of $fpath, or: source <(${bin} completion zsh)`,
    `${fn}_apps() { local -a apps; apps=(\${(f)"$(${appsCommand(bin, 'zsh')})"}); compadd -a apps; }`,
    `${fn}_apps_or_dirs() { ${fn}_apps; _path_files -/; }`,
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

function fishScript(bin: string, commands: readonly CommandSpec[]): string {
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const when = (command: string) => `-n ${quote(`__fish_seen_subcommand_from ${command}`)}`;
  const value = (v: Values) =>
    v.kind === 'words' ? `-x -a ${quote(v.words.join(' '))}` : v.kind === 'files' ? '-r -F' : '-x';
  const option = (command: string, o: Option) => {
    const parts = [`complete -c ${bin} ${when(command)}`];
    if (o.short) parts.push(`-s ${o.short.slice(1)}`);
    if (o.long) parts.push(`-l ${o.long.slice(2)}`);
    if (o.required) parts.push(value(optionValues(o)));
    return [...parts, `-d ${quote(o.description)}`].join(' ');
  };
  const positional = (c: CommandSpec) => {
    const v = c.positional;
    if (v.kind === 'words') return [`complete -c ${bin} ${when(c.name)} -a ${quote(v.words.join(' '))}`];
    if (v.kind !== 'apps') return [];
    const dirs = v.directories ? '; __fish_complete_directories (commandline -ct)' : '';
    return [`complete -c ${bin} ${when(c.name)} -a ${quote(`(${appsCommand(bin, 'fish')}${dirs})`)}`];
  };
  return [
    `# ${bin} completion for fish. Save it as ~/.config/fish/completions/${bin}.fish`,
    // No files unless a place asks for them (-F): a step number or a header has nothing to complete.
    `complete -c ${bin} -f`,
    ...commands.map((c) => `complete -c ${bin} -f -n __fish_use_subcommand -a ${c.name} -d ${quote(c.description)}`),
    ...commands.flatMap((c) => [...c.options.map((o) => option(c.name, o)), ...positional(c)]),
    '',
  ].join('\n');
}
