import type { Command } from 'commander';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-option.ts';
import type { SetExit } from './index.ts';

/** The options commander parses for this command. */
export interface RenderCliOptions {
  output?: string;
  outDir?: string;
  format?: string;
  theme?: string;
  expand?: boolean;
  trace?: string;
  run?: string;
  store?: string;
  chromium?: string;
  direction?: string;
}

/**
 * `switchyard render <dag> -o out.svg|out.png|out.mmd` and `switchyard render <paths…> --out-dir d --format f`:
 * diagrams of DAG documents, many with one browser; an invalid document prints its problems, writes nothing.
 * `-o -` writes the diagram to standard output in `--format` (default svg); PNG bytes are refused on a
 * terminal and written to a pipe.
 * Output paths are checked before any rendering; a trace with no events of a drawn DAG prints a warning.
 * @example
 * await main(['node', 'switchyard', 'render', 'dags/review.jsonld', '-o', 'review.png', '--expand']);
 */
export function registerRender(program: Command, io: CliIO, setExit: SetExit): void {
  program
    .command('render')
    .description('draw DAG documents as Mermaid text, SVG or PNG, optionally with the path a run took')
    .argument(
      '<paths...>',
      'a DAG document (- reads it from standard input), or with --out-dir several documents or folders',
    )
    .option(
      '-o, --output <file>',
      'the file to write, in a folder that exists; its extension (.svg, .png, .mmd) picks the format; ' +
        '- writes standard output in --format',
    )
    .option('--out-dir <dir>', 'write one file per document into this folder (created if missing)')
    .option(
      '--format <format>',
      'with --out-dir or -o -: svg, png or mmd (default svg); with -o <file> it must agree with the extension',
    )
    .option('--theme <theme>', 'light or dark (default light)')
    .option('--expand', 'draw embedded DAGs as subgraphs')
    .option(
      '--trace <file>',
      'a run trace (run --events output; - for standard input) to draw over the graph',
    )
    .option('--run <id>', 'a run recorded in the run store (see switchyard runs) to draw over the graph')
    .option('--store <path>', STORE_OPTION_HELP)
    .option('--direction <dir>', 'TD (top down, default) or LR (left to right)')
    .option(
      '--chromium <path>',
      'the Chromium to render with (default: $SWITCHYARD_CHROMIUM or /usr/bin/chromium)',
    )
    .action(async (paths: string[], options: RenderCliOptions) => {
      const { renderAction } = await import('../actions/render.ts');
      await renderAction(paths, options, io, setExit);
    });
}
