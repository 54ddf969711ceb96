/**
 * A survey over the fuzz inputs, for triage rather than for pass/fail: where the test suite stops at the
 * first failing case of each property, this runs `runs` cases of every family and prints each distinct
 * violation once, with how often it was seen and the smallest case that showed it.
 *
 *   node --import tsx test/fuzz/survey.ts [runs per family] [seed]
 */
import fc from 'fast-check';
import { type CaseOptions, type CaseReport, type FuzzCase, runCase } from './commands.ts';
import { JUNK, mutantCase, SHIPPED, shippedCase, withJunk } from './documents.ts';
import { OTHER_FORMS, SAME_GRAPH_FORMS, toForm } from './forms.ts';
import {
  generatedCase,
  generatedDocsArbitrary,
  nestedLoopsArbitrary,
  nestedLoopsDocument,
} from './generate.ts';
import { MUTATIONS } from './mutate.ts';
import { inputShapeArbitrary, inputText, policyArbitrary, policyText } from './policy.ts';
import { emit, toTree } from './tree.ts';

const runs = Number(process.argv[2] ?? 50);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);

/** A case to run, and how to describe it in the report. */
interface Planned {
  readonly label: string;
  readonly build: () => Promise<FuzzCase>;
  readonly options?: CaseOptions;
  /** Checks beyond those of every case, as violation details. */
  readonly extra?: (report: CaseReport) => Promise<string[]>;
}

const exit = (report: CaseReport, name: string) => report.results.find((r) => r.name === name)?.code;
const hashOf = (report: CaseReport) =>
  /^([0-9a-f]{64})\s/.exec(report.results.find((r) => r.name === 'hash')?.out ?? '')?.[1];

/** What the canonical form of a document gives: validate's exit without and with nodes, and the hash. */
const references = new Map<string, Promise<string>>();
function reference(path: string, base: 'shipped' | 'vocab-node-iri'): Promise<string> {
  const key = `${path}|${base}`;
  let found = references.get(key);
  if (found === undefined) {
    found = (async () => {
      const original = JSON.parse(shipped(path).text);
      const tree = toTree(base === 'shipped' ? original : await toForm(original, 'vocab-node-iri'));
      const report = await runCase(shippedCase(path, emit(tree), tree, 1), {
        run: false,
        render: false,
        validateWithNodes: true,
      });
      return JSON.stringify([exit(report, 'validate'), exit(report, 'validate --nodes'), hashOf(report)]);
    })();
    references.set(key, found);
  }
  return found;
}

const doc = fc.constantFrom(...SHIPPED.map((s) => s.path));
const shipped = (path: string) => SHIPPED.find((s) => s.path === path) ?? (SHIPPED[0] as (typeof SHIPPED)[0]);

const families: Record<string, fc.Arbitrary<Planned>> = {
  ...Object.fromEntries(
    Object.entries(MUTATIONS).map(([name, mutations]) => [
      name,
      fc.tuple(doc, mutations, fc.nat(), fc.boolean()).map(([path, m, s, hostile]) => ({
        label: `${path} ${JSON.stringify(m).slice(0, 200)} seed=${s} hostileInput=${hostile}`,
        build: async () => mutantCase(path, m, s, hostile, name === 'prototypeNames'),
      })),
    ]),
  ),
  sameGraphForms: fc
    .tuple(doc, fc.constantFrom(...SAME_GRAPH_FORMS), fc.boolean(), fc.nat())
    .map(([path, form, vocab, s]) => {
      const base = vocab ? 'vocab-node-iri' : 'shipped';
      const canonical = async () => {
        const original = JSON.parse(shipped(path).text);
        return vocab ? ((await toForm(original, 'vocab-node-iri')) as Record<string, unknown>) : original;
      };
      return {
        label: `${path} (${base}) as ${form} seed=${s}`,
        build: async () => {
          const c = await canonical();
          return shippedCase(path, JSON.stringify(await toForm(c, form), null, 2), toTree(c), s);
        },
        options: { run: false, render: false, validateWithNodes: true },
        extra: async (report: CaseReport) => {
          const want = JSON.parse(await reference(path, base)) as unknown[];
          const got = [exit(report, 'validate'), exit(report, 'validate --nodes'), hashOf(report)];
          const names = ['validate', 'validate --nodes', 'hash'];
          const differ = names.filter((_, i) => got[i] !== want[i]);
          return differ.length === 0
            ? []
            : [
                `form ${form} (${base}) differs in ${differ.join(' and ')}: ${JSON.stringify(got)} against ${JSON.stringify(want)}`,
              ];
        },
      };
    }),
  otherForms: fc
    .tuple(doc, fc.constantFrom(...OTHER_FORMS.filter((f) => f !== 'vocab-node-iri')), fc.nat())
    .map(([path, form, s]) => ({
      label: `${path} as ${form} seed=${s}`,
      build: async () => {
        const written = await toForm(JSON.parse(shipped(path).text), form);
        return shippedCase(path, JSON.stringify(written, null, 2), shipped(path).tree, s);
      },
      options: { run: false, render: false },
      extra: async (report: CaseReport) => {
        const code = form.startsWith('flattened') ? 'E_JSONLD_LOSSY' : 'E_CONTEXT_REFUSED';
        const validate = report.results.find((r) => r.name === 'validate');
        return validate?.code === 1 && validate.out.includes(code)
          ? []
          : [`form ${form}: validate exits ${validate?.code} without ${code}`];
      },
    })),
  generated: fc.tuple(generatedDocsArbitrary, fc.nat()).map(([docs, s]) => ({
    label: `generated root ${emit(docs.root).length} chars, ${docs.children.length} children, mutation ${JSON.stringify(docs.mutation)?.slice(0, 200)} seed=${s}`,
    build: async () => generatedCase(docs.root, docs.children, s, 1 + (s % 3)),
  })),
  nestedLoops: fc.tuple(nestedLoopsArbitrary, fc.nat()).map(([spec, s]) => ({
    label: `nested loops ${JSON.stringify(spec)} seed=${s}`,
    build: async () => generatedCase(nestedLoopsDocument(spec), [], s, 1),
  })),
  policyAndInput: fc
    .tuple(
      doc,
      fc.option(policyArbitrary, { freq: 3 }),
      fc.option(inputShapeArbitrary, { freq: 3 }),
      fc.nat(),
    )
    .map(([path, policy, shape, s]) => ({
      label: `${path} policy ${JSON.stringify(policy)} input ${shape} seed=${s}`,
      build: async () => {
        const base = shippedCase(path, shipped(path).text, shipped(path).tree, s);
        const files = new Map(base.files);
        if (policy !== null) files.set(base.target.replace(/\.jsonld$/, '.policy.json'), policyText(policy));
        return { ...base, files, ...(shape === null ? {} : { input: inputText(shape) }) };
      },
      options: { render: false },
    })),
  junk: fc
    .tuple(doc, fc.constantFrom(...JUNK.filter((j) => j !== 'fifo')), fc.nat())
    .map(([path, junk, s]) => ({
      label: `${path} with ${junk} beside it seed=${s}`,
      build: async () => withJunk(shippedCase(path, shipped(path).text, toTree(shipped(path).tree), s), junk),
    })),
};

/** A violation with names, numbers and paths taken out, so that one cause gives one signature. */
function signature(kind: string, command: string, detail: string): string {
  const general = detail
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\S*\.json(ld)?(:\d+:\d+)?/g, 'FILE')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
  return `${kind} | ${command.split(' ')[0]} | ${general}`;
}

const seen = new Map<string, { count: number; label: string; detail: string; size: number }>();
for (const [name, family] of Object.entries(families)) {
  const planned = fc.sample(family, { numRuns: runs, seed });
  for (const p of planned) {
    const c = await p.build();
    const size = [...c.files.values()].reduce((n, f) => n + f.length, 0);
    const report = await runCase(c, p.options);
    const extra = (await p.extra?.(report)) ?? [];
    for (const v of [
      ...report.violations,
      ...extra.map((detail) => ({ kind: 'form', command: 'validate', detail })),
    ]) {
      const key = signature(v.kind, v.command, v.detail);
      const entry = seen.get(key);
      if (entry === undefined || size < entry.size) {
        seen.set(key, {
          count: (entry?.count ?? 0) + 1,
          label: `[${name}] ${p.label}`,
          detail: v.detail,
          size,
        });
      } else entry.count++;
    }
  }
  process.stderr.write(`${name}: ${runs} cases, ${seen.size} signatures so far\n`);
}
process.stdout.write(`survey: ${runs} cases per family, seed ${seed}\n\n`);
for (const [key, e] of [...seen].sort()) {
  process.stdout.write(`${key}\n  seen ${e.count}x; smallest: ${e.label}\n  ${e.detail.slice(0, 400)}\n\n`);
}
