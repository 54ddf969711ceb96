/**
 * The documents of the served folder, checked as `switchyard validate` checks them: every `*.jsonld` file,
 * valid or not, with its problems (found by `folder-walk.ts`: a symlink that leads out of the folder is left
 * out, unread). The check runs once and again after any change on disk; a document's view
 * is built when first asked for and kept until the next change.
 */
import { checkDocuments } from '../cli/check.ts';
import {
  type DocumentView,
  invalidDocumentView,
  problemView,
  slashedPath,
  validDocumentView,
} from './document-view.ts';
import { walkFolder } from './folder-walk.ts';

/** One document in the list. */
export interface DocumentSummary {
  /** Relative to the served folder, with `/` separators. */
  readonly path: string;
  readonly valid: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly id?: string;
  readonly name?: string;
}

interface Checked {
  readonly summaries: readonly DocumentSummary[];
  readonly views: Map<string, Promise<DocumentView>>;
  readonly build: (path: string) => Promise<DocumentView> | undefined;
}

/** The served folder's documents, checked once per change. */
export interface DocumentCatalog {
  readonly root: string;
  /** Every document, in path order. */
  list(): Promise<readonly DocumentSummary[]>;
  /** One document's view by its path relative to the folder, or undefined when no such document. */
  view(path: string): Promise<DocumentView | undefined>;
  /** Forgets the last check: the next call checks the folder again. */
  invalidate(): void;
}

async function checkFolder(root: string): Promise<Checked> {
  const checked = await checkDocuments((await walkFolder(root)).documents, root);
  const summaries: DocumentSummary[] = [];
  const byPath = new Map<string, (typeof checked.reports)[number]>();
  for (const report of checked.reports) {
    const path = slashedPath(root, report.file);
    byPath.set(path, report);
    const dag = checked.valid.get(report.file);
    summaries.push({
      path,
      valid: report.valid,
      errors: report.problems.filter((p) => p.severity === 'error').length,
      warnings: report.problems.filter((p) => p.severity === 'warning').length,
      ...(dag === undefined ? {} : { id: dag.id, name: dag.name }),
    });
  }
  summaries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const build = (path: string): Promise<DocumentView> | undefined => {
    const report = byPath.get(path);
    if (report === undefined) return undefined;
    const problems = report.problems.map((p) => problemView(p, root));
    const dag = checked.valid.get(report.file);
    if (dag === undefined) return invalidDocumentView(path, report.file, checked.library, problems);
    return validDocumentView(path, report.file, dag, checked.library, problems, root);
  };
  return { summaries, views: new Map(), build };
}

/**
 * A catalog of the documents under `root` (an absolute folder).
 * @example
 * const catalog = documentCatalog('/work/dags');
 * for (const d of await catalog.list()) console.log(d.path, d.valid);
 */
export function documentCatalog(root: string): DocumentCatalog {
  let current: Promise<Checked> | undefined;
  const checked = (): Promise<Checked> => {
    if (current === undefined) {
      const started = checkFolder(root);
      current = started;
      // A check that failed is tried again on the next request, not kept.
      started.catch(() => {
        if (current === started) current = undefined;
      });
    }
    return current;
  };
  return {
    root,
    async list() {
      return (await checked()).summaries;
    },
    async view(path) {
      const state = await checked();
      let view = state.views.get(path);
      if (view === undefined) {
        const built = state.build(path);
        if (built === undefined) return undefined;
        view = built;
        state.views.set(path, built);
        built.catch(() => state.views.delete(path));
      }
      return view;
    },
    invalidate() {
      current = undefined;
    },
  };
}
