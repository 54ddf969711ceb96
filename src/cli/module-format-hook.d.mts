// The types of module-format-hook.mjs, which is plain JavaScript because Node's hooks thread loads it.

/** Whether `source` is an ES module (see module-format-hook.mjs). */
export declare function isModuleSource(source: string): boolean;

/** Receives the URL node modules are imported from and the tsx namespace they are compiled under. */
export declare function initialize(data: { readonly parent: string; readonly namespace: string }): void;

/** The resolve hook. */
export declare function resolve(
  specifier: string,
  context: { readonly parentURL?: string },
  next: (specifier: string, context: object) => Promise<{ url: string; format?: string | null }>,
): Promise<{ url: string; format?: string | null }>;

/** Imports a node module from the hook module's URL, which the resolve hook knows as their parent. */
export declare function importFile(url: string): Promise<unknown>;
