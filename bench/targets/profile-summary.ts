/**
 * Summarises profiles for docs/ENGINE-PROFILE.md:
 * - `.cpuprofile` (from `node --cpu-prof`): the share of samples spent in each function (self time, and
 *   inclusive time with each sample counted once per function), by name and place (`file:line`);
 * - `.heapprofile` written by bench/targets/profile-run.ts with `ALLOC_PROFILE`: the bytes each function
 *   allocated per unit of work (list element, node execution), garbage included;
 * - `.heapsnapshot` written by bench/targets/inflight.ts with `INFLIGHT_SNAPSHOT` (with `--items <n>`, the
 *   items held when it was taken): the objects the heap holds per item, by kind and name (a closure by its
 *   function's name, an object by its constructor's), with their bytes.
 *
 *   node --import tsx bench/targets/profile-summary.ts <file>… [--top 30] [--under src/] [--root src/]
 *     [--outside <function>]   (leave out the samples under a function, e.g. the store's `commit`)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

/** One function's share of the samples. */
export interface FunctionShare {
  readonly name: string;
  readonly place: string;
  readonly self: number;
  readonly total: number;
}

function placeOf(node: ProfileNode, root: string): string {
  const { url, lineNumber } = node.callFrame;
  if (url === '') return '';
  const path = url.replace(/^file:\/\//u, '');
  const short = path.includes(root) ? path.slice(path.indexOf(root)) : path.replace(/^.*node_modules\//u, '');
  return `${short}:${lineNumber + 1}`;
}

/**
 * Self and inclusive shares (0..1) of every function of `profile`, largest self share first; `root` is the
 * part of a file's path from which it is shown (e.g. `src/`). With `outside`, samples whose stack holds a
 * function of that name are left out of the counts (not of the whole): what the rest of the time is spent on.
 */
export function functionShares(profile: Profile, root: string, outside?: string): FunctionShare[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const key = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'}\t${placeOf(node, root)}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const under = (sample: number, name: string) => {
    for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
      if (byId.get(at)?.callFrame.functionName === name) return true;
    }
    return false;
  };
  for (const sample of profile.samples) {
    const node = byId.get(sample);
    if (node === undefined || (outside !== undefined && under(sample, outside))) continue;
    self.set(key(node), (self.get(key(node)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at) as ProfileNode);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + 1);
    }
  }
  const n = profile.samples.length;
  return [...total.entries()]
    .map(([k, t]) => {
      const [name, place] = k.split('\t') as [string, string];
      return { name, place, self: (self.get(k) ?? 0) / n, total: t / n };
    })
    .sort((a, b) => b.self - a.self);
}

interface AllocationNode {
  readonly callFrame: ProfileNode['callFrame'];
  readonly selfSize: number;
  readonly children: readonly AllocationNode[];
}

/** Bytes allocated per unit by each function of a sampled allocation profile, largest first. */
export function allocationShares(
  profile: { readonly head: AllocationNode; readonly units: number },
  root: string,
): { readonly name: string; readonly place: string; readonly bytesPerUnit: number }[] {
  const bytes = new Map<string, number>();
  const walk = (node: AllocationNode) => {
    const k = `${node.callFrame.functionName || '(anonymous)'}\t${placeOf(node as unknown as ProfileNode, root)}`;
    bytes.set(k, (bytes.get(k) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return [...bytes.entries()]
    .map(([k, b]) => {
      const [name, place] = k.split('\t') as [string, string];
      return { name, place, bytesPerUnit: b / profile.units };
    })
    .sort((a, b) => b.bytesPerUnit - a.bytesPerUnit);
}

function printAllocations(file: string, top: number, root: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: AllocationNode; units: number };
  const shares = allocationShares(profile, root);
  const total = shares.reduce((sum, s) => sum + s.bytesPerUnit, 0);
  process.stdout.write(
    `\n${file}: ${Math.round(total)} bytes allocated per unit (sampled)\n  bytes/unit  function\n`,
  );
  for (const s of shares.slice(0, top)) {
    process.stdout.write(`  ${Math.round(s.bytesPerUnit).toString().padStart(10)}  ${s.name} ${s.place}\n`);
  }
}

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** Objects per item and bytes per item of each kind and name in a heap snapshot, largest first. */
export function heldShares(
  snapshot: Snapshot,
  items: number,
): {
  readonly kind: string;
  readonly name: string;
  readonly perItem: number;
  readonly bytesPerItem: number;
}[] {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const count = new Map<string, number>();
  const bytes = new Map<string, number>();
  const { nodes, strings } = snapshot;
  for (let i = 0; i < nodes.length; i += width) {
    const kind = types[nodes[i + typeAt] as number] ?? '?';
    const raw = strings[nodes[i + nameAt] as number] ?? '';
    // Strings and numbers are named by their value: one row per kind is what matters.
    const name =
      kind === 'string' || kind === 'concatenated string' || kind === 'number' ? '' : raw.slice(0, 60);
    const k = `${kind}\t${name}`;
    count.set(k, (count.get(k) ?? 0) + 1);
    bytes.set(k, (bytes.get(k) ?? 0) + (nodes[i + sizeAt] as number));
  }
  return [...bytes.entries()]
    .map(([k, b]) => {
      const [kind, name] = k.split('\t') as [string, string];
      return { kind, name, perItem: (count.get(k) ?? 0) / items, bytesPerItem: b / items };
    })
    .sort((a, b) => b.bytesPerItem - a.bytesPerItem);
}

function printHeld(file: string, top: number, items: number): void {
  const shares = heldShares(JSON.parse(readFileSync(file, 'utf8')) as Snapshot, items);
  const total = shares.reduce((sum, s) => sum + s.bytesPerItem, 0);
  process.stdout.write(
    `\n${file}: ${Math.round(total)} bytes of heap per item (whole heap over ${items} items)\n  bytes/item  objects/item  kind  name\n`,
  );
  for (const s of shares.slice(0, top)) {
    process.stdout.write(
      `  ${s.bytesPerItem.toFixed(1).padStart(10)}  ${s.perItem.toFixed(2).padStart(12)}  ${s.kind}  ${s.name}\n`,
    );
  }
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: 'string', default: '30' },
      under: { type: 'string' },
      root: { type: 'string', default: 'src/' },
      items: { type: 'string', default: '1' },
      outside: { type: 'string' },
    },
  });
  for (const file of positionals) {
    if (file.endsWith('.heapsnapshot')) {
      printHeld(file, Number(values.top), Number(values.items));
      continue;
    }
    if (file.endsWith('.heapprofile')) {
      printAllocations(file, Number(values.top), values.root);
      continue;
    }
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const shares = functionShares(profile, values.root, values.outside);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);
    process.stdout.write(`\n${file}: ${profile.samples.length} samples\n  self   total  function\n`);
    for (const s of shares.slice(0, Number(values.top))) {
      process.stdout.write(`  ${pct(s.self)} ${pct(s.total)}  ${s.name} ${s.place}\n`);
    }
    const under = values.under;
    if (under !== undefined) {
      const inside = shares.filter((s) => s.place.includes(under)).reduce((sum, s) => sum + s.self, 0);
      process.stdout.write(`  self time in files under ${under}: ${pct(inside)}\n`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
